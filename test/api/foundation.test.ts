import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { freePort } from '../../scripts/cluster/free-ports';
import { createApp } from '../../src/api/app';
import { closeServer, listen } from '../../src/api/server';
import { createDb } from '../../src/db/knex';
import { SEARCH_ATTRIBUTES } from '../../src/domain/search-attributes';
import { eventually } from '../helpers/eventually';
import { seedMerchant } from '../helpers/fixtures';
import { capturedLogger } from '../helpers/log-capture';
import { evaluateInput, eventNames, startOrder, vaultTestCard } from '../helpers/orders';
import { startTestStack, type TestStack } from '../helpers/stack';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('foundation: the real API with a real worker, Temporal dev server and Postgres', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const call = (path: string, init?: RequestInit) => fetch(`${stack.baseUrl}${path}`, init);

  it('GET /v1/health answers 200 with the database and Temporal ok, without authentication', async () => {
    const res = await call('/v1/health');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await res.json();
    expect(body).toMatchObject({
      status: 'ok',
      environment: 'sandbox',
      checks: { database: { status: 'ok' }, temporal: { status: 'ok' } },
    });
    // The running release, as package.json names it; no build id for an unversioned process.
    const packageJson = JSON.parse(await readFile(path.join(__dirname, '../../package.json'), 'utf8'));
    expect(body.version).toBe(packageJson.version);
    expect(body.buildId).toBeNull();
  });

  it('gives every response a request id, keeping a well-formed one from the caller', async () => {
    const generated = await call('/v1/health');
    expect(generated.headers.get('x-request-id')).toMatch(UUID);
    const kept = await call('/v1/health', { headers: { 'x-request-id': 'caller-chosen-id-123' } });
    expect(kept.headers.get('x-request-id')).toBe('caller-chosen-id-123');
    const replaced = await call('/v1/health', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(replaced.headers.get('x-request-id')).toMatch(UUID);
  });

  async function expectError(res: Response, status: number, id: string, name: string) {
    expect(res.status).toBe(status);
    const body = await res.json();
    expect(body.error).toMatchObject({ id, name, requestId: res.headers.get('x-request-id') });
    expect(typeof body.error.message).toBe('string');
    return body;
  }

  it('answers an unknown route with 404 and identifier 404001', async () => {
    await expectError(await call('/v1/no-such-thing'), 404, '404001', 'route_not_found');
  });

  it('reads a path with repeated or trailing slashes as the path, and matches its case exactly', async () => {
    for (const path of ['/v1//health', '/v1/health/']) expect((await call(path)).status).toBe(200);
    await expectError(await call('/V1/HEALTH'), 404, '404001', 'route_not_found');
  });

  it('answers a wrong method on a known route with 405, 405001 and an Allow header', async () => {
    const res = await call('/v1/health', { method: 'DELETE' });
    expect(res.headers.get('allow')).toContain('GET');
    await expectError(res, 405, '405001', 'method_not_allowed');
  });

  it('answers malformed JSON with 400 and 400001', async () => {
    const res = await call('/v1/health', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"idempotencyKey": ',
    });
    await expectError(res, 400, '400001', 'malformed_json');
  });

  it('answers a POST whose body is not JSON with 415 and 415001', async () => {
    const res = await call('/v1/health', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' });
    await expectError(res, 415, '415001', 'unsupported_media_type');
  });

  it.each(['application/merge-patch+json', 'application/vnd.api+json', 'application/problem+json'])(
    'answers a body of type %s with 415: only application/json is read, so its fields would be lost',
    async (type) => {
      const res = await call('/v1/health', {
        method: 'POST',
        headers: { 'content-type': type },
        body: '{"amountToRefund":1}',
      });
      await expectError(res, 415, '415001', 'unsupported_media_type');
    },
  );

  it('answers an oversized JSON body with 413 and 413001', async () => {
    const res = await call('/v1/health', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ padding: 'x'.repeat(300 * 1024) }),
    });
    await expectError(res, 413, '413001', 'payload_too_large');
  });

  it('logs one JSON line per request with its id, and never the authorization header', async () => {
    const res = await call('/v1/health', { headers: { authorization: 'Bearer super-secret-token-value' } });
    const id = res.headers.get('x-request-id');
    // The request line is written when the response finishes, which can be just after the client reads it.
    const line = await eventually(
      () => stack.logs.lines.map((l) => JSON.parse(l)).find((l) => l.requestId === id && l.msg === 'request'),
      (found) => found !== undefined,
      { describe: `the request log line of ${id}`, timeoutMs: 5_000 },
    );
    expect(line).toMatchObject({ method: 'GET', path: '/v1/health', status: 200 });
    expect(line.errorId).toBeUndefined();
    expect(stack.logs.text()).not.toContain('super-secret-token-value');
  });

  it("names a refused request's six-digit error id on its log line, so the log says why without the body", async () => {
    const res = await call('/v1/health', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' });
    const id = res.headers.get('x-request-id');
    const line = await eventually(
      () => stack.logs.lines.map((l) => JSON.parse(l)).find((l) => l.requestId === id && l.msg === 'request'),
      (found) => found !== undefined,
      { describe: `the request log line of ${id}`, timeoutMs: 5_000 },
    );
    expect(line).toMatchObject({ method: 'POST', path: '/v1/health', status: 415, errorId: '415001' });
  });

  it('runs workflows on the real worker through the shared bundle: an async MIT window closes on its timer', async () => {
    const owner = await seedMerchant(stack.db);
    const card = await vaultTestCard(stack.db, owner.mid, '4000000000009995', stack.config.vaultKeys);
    const expiry = new Date(Date.now() + 1_500);
    const { result, workflowId, orderId } = await startOrder(
      stack.client,
      stack.taskQueue,
      owner,
      evaluateInput(card, new Date(), {
        flow: 'ASYNC_MIT',
        isMIT: true,
        isRecurring: true,
        intervalCount: 1,
        expiryDateUtc: expiry.toISOString(),
      }),
    );
    expect(result).toMatchObject({ kind: 'answer', outcome: 'SUBMITTED', status: 'Processing' });
    // The durable timer of the rescue window fires (before any retry is due): the order expires.
    await expect(stack.client.workflow.getHandle(workflowId).result()).resolves.toEqual({ status: 'Cancelled' });
    expect(Date.now()).toBeGreaterThanOrEqual(expiry.getTime());
    expect(await eventNames(stack.db, orderId)).toEqual(['order.expired']);
  });

  it('has the order search attributes registered on the namespace', async () => {
    const { customAttributes } = await stack.connection.operatorService.listSearchAttributes({ namespace: 'default' });
    for (const { name } of Object.values(SEARCH_ATTRIBUTES))
      expect(Object.keys(customAttributes ?? {})).toContain(name);
  });
});

describe('GET /v1/health when a dependency is down', () => {
  it('answers 503 naming the database when Postgres does not answer', async () => {
    const deadPort = await freePort();
    const { logger } = capturedLogger();
    const db = createDb(`postgres://nobody:nothing@127.0.0.1:${deadPort}/none`, 1, logger);
    const stack = await startTestStack();
    const server = await listen(
      { config: stack.config, db, temporal: stack.connection, temporalClient: stack.client, logger },
      '127.0.0.1',
      0,
    );
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/health`);
      expect(res.status).toBe(503);
      const body = await res.json();
      expect(body).toMatchObject({
        status: 'unavailable',
        checks: { database: { status: 'down' }, temporal: { status: 'ok' } },
      });
    } finally {
      await closeServer(server);
      await db.destroy();
      await stack.stop();
    }
  });

  it('answers 503 naming Temporal when the frontend does not answer', async () => {
    const deadPort = await freePort();
    const temporal = Connection.lazy({ address: `127.0.0.1:${deadPort}`, connectTimeout: 500 });
    const stack = await startTestStack();
    const app = createApp({
      config: stack.config,
      db: stack.db,
      temporal,
      temporalClient: stack.client,
      logger: capturedLogger().logger,
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/health`);
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({
        status: 'unavailable',
        checks: { database: { status: 'ok' }, temporal: { status: 'down' } },
      });
    } finally {
      await closeServer(server);
      await temporal.close();
      await stack.stop();
    }
  });
});
