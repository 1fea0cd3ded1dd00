import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  PaymentRescueClient,
  PaymentRescueError,
  type RetryEvent,
  WebhookVerificationError,
  webhooks,
} from '../../clients/typescript/src';
import { type Received, startReceiver } from '../../scripts/receivers/https-receiver';
import { DATABASE_RETRY_AFTER_SECONDS } from '../../src/domain/database-unavailable';
import { callApi } from '../helpers/api-client';
import { eventually } from '../helpers/eventually';
import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { startApiBehindProxy } from '../helpers/pg-proxy';
import { startTestStack, type TestStack } from '../helpers/stack';
import { startScriptedProxy } from './scripted-proxy';

/** The approving and the processor-unavailable test cards (docs/sandbox.md). */
const APPROVES = '4111111111111111';
const UNAVAILABLE = '4000000000000119';

const declined = (card = APPROVES) => ({
  externalOrderId: `client-${randomUUID()}`,
  transaction: { amount: 2500, currency: 'USD', responseCode: '51' },
  paymentMethod: { cardNumber: card, expiryMonth: 12, expiryYear: 2030 },
});

describe('the TypeScript client library against the real stack', () => {
  let stack: TestStack;
  let proxy: Awaited<ReturnType<typeof startScriptedProxy>>;
  let key: { clientId: string; clientSecret: string };
  let merchant: Awaited<ReturnType<typeof seedMerchant>>;
  const retries: RetryEvent[] = [];

  /** A client on the API directly, or through the scripted proxy; fast backoff, the real rules. */
  const clientOf = (baseUrl: string, credentials = key) =>
    new PaymentRescueClient({
      baseUrl,
      ...credentials,
      retry: { baseDelayMs: 20 },
      onRetry: (event) => retries.push(event),
    });
  /**
   * A second token of `credentials`, used once so the API keeps its grant. Bearer grants are cached
   * until Postgres tells every API process of a change, which the service promises within a second
   * (docs/authentication.md); once this probe is refused the API has heard the change and dropped
   * the client's cached grant with it.
   */
  const cachedProbe = async (credentials: { clientId: string; clientSecret: string }) => {
    const token = await accessToken(stack.baseUrl, credentials);
    expect((await callApi(stack.baseUrl, token, 'GET', '/v1/webhooks')).status).toBe(200);
    return token;
  };
  const revocationHeard = (probe: string) =>
    eventually(
      async () => (await callApi(stack.baseUrl, probe, 'GET', '/v1/webhooks')).status,
      (status) => status === 401,
      { describe: 'the API to refuse the revoked probe token', timeoutMs: 2_000, intervalMs: 50 },
    );
  const ordersOf = (externalOrderId: string) =>
    stack.db('orders').where({ merchant_id: merchant.mid, external_order_id: externalOrderId });

  beforeAll(async () => {
    stack = await startTestStack();
    merchant = await seedMerchant(stack.db);
    key = await seedKey(stack.db, merchant);
    proxy = await startScriptedProxy(stack.baseUrl);
  });
  afterAll(async () => {
    await proxy?.stop();
    await stack?.stop();
  });
  beforeEach(() => {
    retries.length = 0;
  });

  it('evaluates to APPROVED, reads the order and refunds it in full', async () => {
    const client = clientOf(stack.baseUrl);
    const answer = await client.evaluate(declined());
    expect(answer).toMatchObject({ outcome: 'APPROVED', status: 'APPROVED', orderStatusName: 'Completed' });

    const order = await client.orders.get(answer.orderId);
    expect(order).toMatchObject({ orderId: answer.orderId, statusName: 'SUCCESS' });

    const refund = await client.orders.refund(answer.orderId);
    expect(refund).toMatchObject({ orderId: answer.orderId, status: 'APPROVED', amount: 2500, refundedAmount: 2500 });
    expect((await client.orders.get(answer.orderId)).amounts.refunded).toBe(2500);
    expect(retries).toEqual([]);
  });

  it('captures, cancels and external-cancels authorized orders, and tokenizes a card with the tokenization key', async () => {
    const settings = await callApi(
      stack.baseUrl,
      await accessToken(stack.baseUrl, key),
      'PUT',
      `/v1/merchants/${merchant.mid}/settings`,
      {
        authorizeCapability: true,
      },
    );
    expect(settings.status).toBe(200);
    const client = new PaymentRescueClient({
      baseUrl: stack.baseUrl,
      ...key,
      tokenizationKey: merchant.tokenizationKey,
    });
    const authorize = async () => {
      const answer = await client.evaluate({ ...declined(), transactionType: 'AUTHORIZATION' });
      expect(answer.outcome).toBe('CAPTUREREQUIRED');
      return answer;
    };

    const first = await authorize();
    expect(await client.capture({ orderId: first.orderId })).toMatchObject({
      status: 'APPROVED',
      orderStatusName: 'Completed',
    });
    const second = await authorize();
    await expect(client.orders.cancel(second.orderId)).resolves.toBeUndefined();
    expect((await client.orders.get(second.orderId)).status).toBe(2);
    const third = await authorize();
    await expect(client.orders.externalCancel(third.externalOrderId)).resolves.toBeUndefined();
    expect((await client.orders.get(third.orderId)).status).toBe(2);

    const card = await client.tokenize({ cardNumber: APPROVES, expiryMonth: 12, expiryYear: 2030 });
    expect(card.token).toEqual(expect.any(String));
    const { paymentMethod: _card, ...rest } = declined();
    const byToken = await client.evaluate({ ...rest, paymentMethod: { token: card.token } });
    expect(byToken.outcome).toBe('APPROVED');
  });

  it('answers a 401 by refreshing the token once and retrying the call once (expired, then revoked)', async () => {
    const client = clientOf(stack.baseUrl);
    const first = await client.evaluate(declined());
    // The service's clock passes the token's lifetime (1 h): the cached token is refused (401003).
    stack.clock.advance((stack.config.auth.accessTokenTtlSeconds + 60) * 1000);
    expect(await client.orders.get(first.orderId)).toMatchObject({ orderId: first.orderId });
    expect(retries).toEqual([expect.objectContaining({ reason: 'token-refresh', status: 401, id: '401003' })]);

    // Every issued token revoked: the new token is refused as unknown (401002), once.
    retries.length = 0;
    const probe = await cachedProbe(key);
    await stack.db('access_tokens').delete();
    await revocationHeard(probe);
    expect(await client.orders.get(first.orderId)).toMatchObject({ orderId: first.orderId });
    expect(retries).toEqual([expect.objectContaining({ reason: 'token-refresh', status: 401, id: '401002' })]);
  });

  it('surfaces a revoked API key as 401001 after one refresh, without looping', async () => {
    const other = await seedKey(stack.db, merchant);
    const client = clientOf(stack.baseUrl, other);
    await client.webhookEndpoints.list();
    const probe = await cachedProbe(other);
    await stack.db('api_keys').where({ id: other.clientId }).update({ revoked_at: new Date() });
    await revocationHeard(probe);
    const error = await client.webhookEndpoints.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentRescueError);
    expect(error).toMatchObject({ status: 401, id: '401001', code: 'invalid_client' });
    expect(retries.filter((r) => r.reason === 'token-refresh')).toHaveLength(1);
  });

  it('waits Retry-After on a 503 503001 and retries with the same idempotencyKey: one order', async () => {
    const client = clientOf(proxy.url);
    proxy.script('POST', '/v1/evaluate', {
      kind: 'answer',
      status: 503,
      headers: { 'retry-after': '1' },
      body: {
        title: 'The idempotency store is temporarily unavailable.',
        TraceId: 'proxy-1',
        error: { id: '503001', name: 'idempotency_store_unavailable', message: 'store down', requestId: 'proxy-1' },
      },
    });
    const request = declined();
    const answer = await client.evaluate(request);
    expect(answer.outcome).toBe('APPROVED');

    const [refused, retried] = proxy.requests('POST', '/v1/evaluate').slice(-2);
    expect(refused).toMatchObject({ status: 503, forwarded: false });
    expect(retried).toMatchObject({ status: 200, forwarded: true });
    expect(JSON.parse(retried?.body ?? '{}').idempotencyKey).toBe(JSON.parse(refused?.body ?? '{}').idempotencyKey);
    // Retry-After is a lower bound on the wait, not a measure of speed.
    expect((retried?.receivedAt ?? 0) - (refused?.answeredAt ?? 0)).toBeGreaterThanOrEqual(990);
    expect(retries).toEqual([expect.objectContaining({ reason: 'retry-after', delayMs: 1000, id: '503001' })]);
    expect(await ordersOf(request.externalOrderId)).toHaveLength(1);
  });

  it("rides out a real database outage: the API's own 503 503001 and Retry-After, then one order", async () => {
    const api = await startApiBehindProxy(stack, 2);
    try {
      // The database comes back while the client waits out the Retry-After it was given.
      const client = new PaymentRescueClient({
        baseUrl: api.base,
        ...key,
        onRetry: (event) => {
          retries.push(event);
          api.proxy.up();
        },
      });
      await client.webhookEndpoints.list();
      api.proxy.down();
      const request = declined();
      const answer = await client.evaluate(request);
      expect(answer.outcome).toBe('APPROVED');
      expect(retries).toEqual([
        expect.objectContaining({
          reason: 'retry-after',
          status: 503,
          id: '503001',
          delayMs: DATABASE_RETRY_AFTER_SECONDS * 1000,
        }),
      ]);
      expect(await ordersOf(request.externalOrderId)).toHaveLength(1);
    } finally {
      await api.stop();
    }
  });

  it('retries a 502 after the API handled the evaluate with the same idempotencyKey: one order, its answer', async () => {
    const client = clientOf(proxy.url);
    proxy.script('POST', '/v1/evaluate', { kind: 'lose-answer', status: 502 });
    const request = declined();
    const answer = await client.evaluate(request);

    const [lost, retried] = proxy.requests('POST', '/v1/evaluate').slice(-2);
    expect(lost).toMatchObject({ status: 502, forwarded: true });
    expect(retried).toMatchObject({ status: 200, forwarded: true });
    const keys = [lost, retried].map((r) => JSON.parse(r?.body ?? '{}').idempotencyKey);
    expect(keys[0]).toEqual(expect.any(String));
    expect(keys[1]).toBe(keys[0]);
    expect(retries).toEqual([expect.objectContaining({ reason: 'backoff', status: 502, idempotencyKey: keys[0] })]);
    const orders = await ordersOf(request.externalOrderId);
    expect(orders).toHaveLength(1);
    expect(answer).toMatchObject({ orderId: orders[0]?.id, outcome: 'APPROVED' });
  });

  it('gives up after 3 attempts on 500/502/504, with one idempotencyKey and the outcome unknown', async () => {
    const client = clientOf(proxy.url);
    for (const status of [500, 504, 502]) proxy.script('POST', '/v1/evaluate', { kind: 'answer', status });
    const request = declined();
    const error = await client.evaluate(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentRescueError);
    expect(error).toMatchObject({ status: 502, attempts: 3, outcomeUnknown: true, fallBackToOriginalDecline: false });
    const attempts = proxy.requests('POST', '/v1/evaluate').slice(-3);
    expect(attempts.map((a) => a.status)).toEqual([500, 504, 502]);
    expect(new Set(attempts.map((a) => JSON.parse(a.body).idempotencyKey))).toEqual(
      new Set([(error as PaymentRescueError).idempotencyKey]),
    );
    expect(await ordersOf(request.externalOrderId)).toHaveLength(0);
  });

  it('does not retry 503002 rescue unavailable: a typed error says fall back to the original decline', async () => {
    const client = clientOf(proxy.url);
    const before = proxy.requests('POST', '/v1/evaluate').length;
    const error = await client.evaluate(declined(UNAVAILABLE)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentRescueError);
    expect(error).toMatchObject({
      status: 503,
      id: '503002',
      code: 'rescue_unavailable',
      fallBackToOriginalDecline: true,
      attempts: 1,
      requestId: expect.any(String),
    });
    expect(proxy.requests('POST', '/v1/evaluate')).toHaveLength(before + 1);
    expect(retries).toEqual([]);
  });

  it('carries the six-digit id, request id and message of a 4xx, and does not retry it', async () => {
    const client = clientOf(stack.baseUrl);
    const error = await client.orders.get(randomUUID()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentRescueError);
    const e = error as PaymentRescueError;
    expect(e).toMatchObject({ status: 404, id: '404003', code: 'order_not_found', attempts: 1 });
    expect(e.requestId).toMatch(/\S/);
    expect(e.message).toBe('The specified order could not be located.');
  });

  it('verifies a live order.completed delivery, with the rotated secrets, and rejects it tampered or stale', async () => {
    const receiver = await startReceiver(200);
    try {
      const client = clientOf(stack.baseUrl);
      const endpoint = await client.webhookEndpoints.create({ url: receiver.url, events: ['order.completed'] });
      const answer = await client.evaluate(declined());
      const delivery = (await eventually(
        () => receiver.received.find((r) => JSON.parse(r.body).OrderId === answer.orderId),
        (r) => r !== undefined,
        { describe: `order.completed of ${answer.orderId} at the receiver` },
      )) as Received;
      const input = { body: delivery.body, headers: delivery.headers, host: receiver.host, secrets: endpoint.secret };

      expect(webhooks.verify(input)).toBe(true);
      const envelope = webhooks.parse(input);
      expect(envelope).toMatchObject({ Event: 'order.completed', OrderId: answer.orderId, EventData: null });
      expect(webhooks.verify({ ...input, body: Buffer.from(delivery.body) })).toBe(true);
      const fetchHeaders = new Headers(delivery.headers);
      expect(webhooks.verify({ ...input, headers: fetchHeaders })).toBe(true);

      const rotated = await client.webhookEndpoints.rotateSecret(endpoint.id);
      expect(webhooks.verify({ ...input, secrets: [rotated.secret, endpoint.secret] })).toBe(true);
      expect(webhooks.verify({ ...input, secrets: [rotated.secret] })).toBe(false);

      const tampered = { ...input, body: delivery.body.replace(answer.orderId, randomUUID()) };
      expect(webhooks.verify(tampered)).toBe(false);
      expect(() => webhooks.parse(tampered)).toThrow(new WebhookVerificationError('content-hash'));
      const later = new Date(Date.parse(delivery.headers['x-fc-date'] ?? '') + 5 * 60_000 + 1_000);
      expect(() => webhooks.parse({ ...input, now: later })).toThrow(new WebhookVerificationError('stale'));
      expect(webhooks.verify({ ...input, host: 'attacker.example' })).toBe(false);
    } finally {
      await receiver.stop();
    }
  });

  it('lists the merchant orders newest first with filters and the cursor, and finds one by externalOrderId', async () => {
    const client = clientOf(stack.baseUrl);
    const first = await client.evaluate(declined());
    const second = await client.evaluate(declined('4000000000000002'));
    const page = await client.orders.list({ limit: 1 });
    expect([page.data.map((o) => o.orderId), page.hasMore]).toEqual([[second.orderId], true]);
    const next = await client.orders.list({ limit: 1, startingAfter: page.nextCursor ?? undefined });
    expect(next.data.map((o) => o.orderId)).toEqual([first.orderId]);
    // Earlier tests made orders for this merchant too: only the two made here are counted.
    const since = (await client.orders.get(first.orderId)).createdAtUtc ?? undefined;
    const here = await client.orders.list({ createdFrom: since });
    expect(here.data.map((o) => o.orderId)).toEqual([second.orderId, first.orderId]);
    const declinedOnes = await client.orders.list({ status: ['Declined', 8], flow: 'CIT', createdFrom: since });
    expect(declinedOnes.data.map((o) => o.orderId)).toEqual([second.orderId]);
    const mine = await client.orders.list({ externalOrderId: first.externalOrderId });
    const { retryBudget: _budget, ...lookedUp } = await client.orders.get(first.orderId); // the lookup's alone
    expect(mine.data).toEqual([lookedUp]);
    const bad = await client.orders.list({ status: 'RESCUED' }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(PaymentRescueError);
    expect([(bad as PaymentRescueError).status, (bad as PaymentRescueError).id]).toEqual([400, '400002']);
  });

  it('pages through the merchant events with the cursor, each once', async () => {
    const client = clientOf(stack.baseUrl);
    const all = [];
    for await (const event of client.events.iterate({ limit: 2 })) all.push(event);
    expect(all.length).toBeGreaterThanOrEqual(4);
    expect(new Set(all.map((e) => e.EventId)).size).toBe(all.length);
    expect(all.map((e) => e.Event)).toEqual(expect.arrayContaining(['order.completed', 'order.refunded']));
  });

  it('has committed types that match the live OpenAPI document (npm run client:types)', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'client-types-'));
    try {
      const out = path.join(dir, 'openapi.ts');
      const script = path.join(__dirname, '../../clients/typescript/scripts/generate-types.ts');
      const tsx = path.join(__dirname, '../../node_modules/.bin/tsx');
      await promisify(execFile)(tsx, [script, '--url', `${stack.baseUrl}/v1/openapi.json`, '--out', out]);
      const committed = path.join(__dirname, '../../clients/typescript/src/generated/openapi.ts');
      const [fresh, kept] = [
        (await readFile(out, 'utf8')).split('\n'),
        (await readFile(committed, 'utf8')).split('\n'),
      ];
      const line = fresh.findIndex((text, i) => text !== kept[i]);
      if (line >= 0 || fresh.length !== kept.length) {
        throw new Error(
          `clients/typescript/src/generated/openapi.ts is stale against GET /v1/openapi.json: run \`npm run client:types\` ` +
            `and commit it. First difference, line ${line + 1}: ${JSON.stringify(kept[line])} should be ${JSON.stringify(fresh[line])}`,
        );
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
