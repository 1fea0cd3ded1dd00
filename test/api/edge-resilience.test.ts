import { randomUUID } from 'node:crypto';
import http, { type Server } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { connectionsRefused } from '../../src/api/connection-limit';
import { closeServer, listen } from '../../src/api/server';
import { claimIdempotencyKey, completeIdempotencyKey } from '../../src/db/repositories/idempotency';
import { LEASE_MS, renewProcessLease } from '../../src/db/repositories/process-leases';
import { systemClock } from '../../src/domain/clock';
import { ApiError, type ErrorName } from '../../src/domain/errors';
import { type Answer, runOnce } from '../../src/idempotency/run-once';
import { createLogger } from '../../src/logger';
import { eventually } from '../helpers/eventually';
import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { requestFrom } from '../helpers/from-address';
import { type PgProxy, startApiBehindProxy } from '../helpers/pg-proxy';
import { startTestStack, type TestStack } from '../helpers/stack';

/**
 * Issue 9 (D5 and "Also"): the API edge with Postgres down or frozen (through a proxy this test
 * owns: the shared test Postgres is never touched), rate limits shared by API processes, the
 * token endpoint's limits, idempotency claims of a dead process, slow request bodies.
 */

async function timedGet(url: string, token?: string) {
  const started = Date.now();
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: text ? JSON.parse(text) : undefined,
    ms: Date.now() - started,
  };
}

describe('the API edge with Postgres down or frozen', () => {
  let stack: TestStack;
  let proxy: PgProxy;
  let api: Awaited<ReturnType<typeof startApiBehindProxy>>;
  let base: string;
  let token: string;
  let key: Awaited<ReturnType<typeof seedKey>>;
  let mid: string;

  beforeAll(async () => {
    stack = await startTestStack();
    // Its statements have a 1 s timeout, so a statement the frozen server never answers fails at 2 s.
    api = await startApiBehindProxy(stack, 5, { statementTimeoutMs: 1_000 });
    ({ proxy, base } = api);
    const m = await seedMerchant(stack.db);
    mid = m.mid;
    key = await seedKey(stack.db, { pid: m.pid, mid: m.mid });
    token = await accessToken(stack.baseUrl, key);
  });
  afterAll(async () => {
    await api?.stop();
    await stack?.stop();
  });

  const expectRetryable503 = (res: Awaited<ReturnType<typeof timedGet>>) => {
    if (res.status === 500) {
      const failed = stack.logs
        .text()
        .split('\n')
        .filter((l) => l.includes('request failed') && !l.includes('ApiError'));
      process.stderr.write(`${failed.slice(-1).join('\n')}\n`);
    }
    expect(res.status).toBe(503);
    expect(res.body.error.id).toBe('503001');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(res.ms).toBeLessThan(4_000); // 1.5 s deadline; generous for a loaded machine
  };

  it('answers bearer-authenticated requests 503 503001 with Retry-After while Postgres is down, then recovers', async () => {
    expect((await timedGet(`${base}/v1/api-keys?mid=${mid}`, token)).status).toBe(200);
    proxy.down();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => timedGet(`${base}/v1/api-keys?mid=${mid}`, token)),
    );
    if (answers.some((a) => a.status === 500))
      process.stderr.write(
        `${stack.logs
          .text()
          .split('\n')
          .filter((l) => l.includes('request failed'))
          .slice(0, 2)
          .join('\n')}\n`,
      );
    for (const res of answers) expectRetryable503(res);
    expect(answers.filter((a) => a.status === 500)).toHaveLength(0);
    proxy.up();
    const back = await eventually(
      () => timedGet(`${base}/v1/api-keys?mid=${mid}`, token),
      (r) => r.status === 200,
      { describe: 'a 200 from the API once Postgres is back', intervalMs: 250 },
    );
    expect(back.body).toMatchObject({ mid, data: expect.any(Array) });
  });

  it('answers 503 within the deadline, and health within its 2 s probe deadline, while Postgres is frozen', async () => {
    // `token` was used (its grant is cached while the cache hears Postgres, so its request may go
    // past the bearer check to the route's statement); `unseen` never was (its check is a lookup).
    expect((await timedGet(`${base}/v1/api-keys?mid=${mid}`, token)).status).toBe(200);
    const unseen = await accessToken(stack.baseUrl, key);
    proxy.freeze();
    try {
      const [bearer, health, again] = await Promise.all([
        timedGet(`${base}/v1/api-keys?mid=${mid}`, unseen),
        timedGet(`${base}/v1/health`),
        timedGet(`${base}/v1/api-keys?mid=${mid}`, token),
      ]);
      expectRetryable503(bearer);
      expectRetryable503(again);
      expect(health.status).toBe(503);
      expect(health.body.checks.database.status).toBe('down');
      expect(health.body.checks.temporal.status).toBe('ok');
      expect(health.ms).toBeLessThan(4_000); // 2 s probe deadline, generous margin
      // A second round while still frozen: the pool's stuck connections hold nothing up.
      const later = await timedGet(`${base}/v1/health`);
      expect(later.status).toBe(503);
      expect(later.ms).toBeLessThan(4_000);
    } finally {
      proxy.up();
    }
    const back = await eventually(
      () => timedGet(`${base}/v1/api-keys?mid=${mid}`, token),
      (r) => r.status === 200,
      { describe: 'a 200 from the API once Postgres is back', intervalMs: 250 },
    );
    expect(back.body).toMatchObject({ mid, data: expect.any(Array) });
    expect((await timedGet(`${base}/v1/health`)).status).toBe(200);
  });
});

describe('rate limits shared by API processes', () => {
  let stack: TestStack;
  let second: Server;
  let secondBase: string;

  beforeAll(async () => {
    stack = await startTestStack({
      env: {
        RATE_LIMIT_BURST: '6',
        RATE_LIMIT_PER_SECOND: '0.1',
        OPEN_RATE_LIMIT_BURST: '5',
        OPEN_RATE_LIMIT_PER_SECOND: '0.01',
      },
    });
    // A second API process on the same database (its own app, buckets and lease).
    second = await listen(
      {
        config: stack.config,
        db: stack.db,
        temporal: stack.connection,
        temporalClient: stack.client,
        logger: stack.logs.logger,
      },
      '127.0.0.1',
      0,
      stack.config.http,
    );
    secondBase = `http://127.0.0.1:${(second.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    if (second) await closeServer(second);
    await stack?.stop();
  });

  const tokenize = (base: string, key: string) =>
    fetch(`${base}/v1/tokenize`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-tokenization-key': key },
      body: JSON.stringify({ cardNumber: '4111111111111111', expiryMonth: 12, expiryYear: 2090 }),
    });

  it("holds one merchant's burst across two API processes", async () => {
    const m = await seedMerchant(stack.db);
    const statuses: number[] = [];
    let refused: Response | undefined;
    for (let i = 0; i < 12; i++) {
      const res = await tokenize(i % 2 === 0 ? stack.baseUrl : secondBase, m.tokenizationKey);
      statuses.push(res.status);
      if (res.status === 429) refused = res;
      expect(res.headers.get('ratelimit-limit')).toBe('6');
    }
    expect(statuses.filter((s) => s < 300)).toHaveLength(6); // not 12: one budget, not one per process
    expect(statuses.slice(6).every((s) => s === 429)).toBe(true);
    expect(refused?.headers.get('retry-after')).toBeTruthy();
    expect(((await (refused as Response).json()) as { error: { id: string } }).error.id).toBe('429001');
  });

  // Each test fails from an address of its own: failed attempts are limited per source.
  const tokenRequest = (source: string, base: string, clientId: string, secret: string) =>
    requestFrom(source, `${base}/v1/oauth2/token`, {
      body: { grant_type: 'client_credentials', client_id: clientId, client_secret: secret },
    });

  it("limits a source's failed secrets and a client's token requests, each across processes", async () => {
    const m = await seedMerchant(stack.db);
    const key = await seedKey(stack.db, { pid: m.pid, mid: m.mid });
    const source = '127.0.0.2';
    const wrong = [];
    for (let i = 0; i < 6; i++)
      wrong.push((await tokenRequest(source, i % 2 ? secondBase : stack.baseUrl, key.clientId, 'x')).status);
    // One budget of 5 failures for the address, not one per process.
    expect(wrong).toEqual([401, 401, 401, 401, 401, 429]);
    const refused = await tokenRequest(source, secondBase, key.clientId, 'x');
    expect([refused.status, refused.body.error.id]).toEqual([429, '429001']);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // The right secret from that very address still gets its token: 6 of them (the client's
    // burst, the payments budget's), then 429 on either process.
    const right = [];
    for (let i = 0; i < 7; i++)
      right.push(
        (await tokenRequest(source, i % 2 ? secondBase : stack.baseUrl, key.clientId, key.clientSecret)).status,
      );
    expect(right).toEqual([200, 200, 200, 200, 200, 200, 429]);
  });

  it('limits failed tokenization keys per IP, and health per IP', async () => {
    const bad = [];
    for (let i = 0; i < 7; i++) {
      const base = i % 2 ? secondBase : stack.baseUrl;
      bad.push(
        (
          await requestFrom('127.0.0.3', `${base}/v1/tokenize`, {
            headers: { 'x-tokenization-key': `tk_bad_${i}` },
            body: { cardNumber: '4111111111111111', expiryMonth: 12, expiryYear: 2090 },
          })
        ).status,
      );
    }
    expect(bad.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(bad.slice(5)).toEqual([429, 429]);
    const health = [];
    for (let i = 0; i < 6; i++) health.push((await fetch(`${secondBase}/v1/health`)).status);
    expect(health.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(health[5]).toBe(429);
  });
});

describe('idempotency claims of a dead API process', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ inProcessWorker: false });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const scope = (mid: string, key: string) => ({ merchantId: mid, key, operation: 'capture', requestHash: 'h' });

  it('takes over a claim whose owner stopped heartbeating, at once, not after 2 minutes', async () => {
    const m = await seedMerchant(stack.db);
    const dead = randomUUID();
    const live = randomUUID();
    await renewProcessLease(stack.db, { id: dead, host: 'crashed', pid: 1 });
    await renewProcessLease(stack.db, { id: live, host: 'restarted', pid: 2 });
    // The dead process's last heartbeat: older than the lease.
    await stack
      .db('api_processes')
      .where({ id: dead })
      .update({ heartbeat_at: stack.db.raw(`clock_timestamp() - interval '${(LEASE_MS / 1000) * 2} seconds'`) });
    const key = randomUUID();
    const now = new Date();
    const deadClaim = randomUUID();
    expect(await claimIdempotencyKey(stack.db, scope(m.mid, key), now, { ownerId: dead, claimId: deadClaim })).toEqual({
      kind: 'claimed',
    });
    // A retry a second later on the live process takes the claim over.
    const liveClaim = randomUUID();
    const retry = await claimIdempotencyKey(stack.db, scope(m.mid, key), new Date(now.getTime() + 1_000), {
      ownerId: live,
      claimId: liveClaim,
    });
    expect(retry).toEqual({ kind: 'claimed' });
    // The dead owner's late answer (had it been alive after all) does not overwrite the new claim.
    await completeIdempotencyKey(stack.db, { merchantId: m.mid, key }, deadClaim, 200, '{"late":true}');
    await completeIdempotencyKey(stack.db, { merchantId: m.mid, key }, liveClaim, 200, '{"ok":true}');
    expect(
      await claimIdempotencyKey(stack.db, scope(m.mid, key), new Date(), { ownerId: live, claimId: randomUUID() }),
    ).toEqual({ kind: 'replay', status: 200, body: '{"ok":true}' });
  });

  it("keeps a live owner's claim (409 in flight), and frees it at once when its owner has no lease row", async () => {
    const m = await seedMerchant(stack.db);
    const live = randomUUID();
    await renewProcessLease(stack.db, { id: live, host: 'alive', pid: 3 });
    const key = randomUUID();
    await claimIdempotencyKey(stack.db, scope(m.mid, key), new Date(), { ownerId: live, claimId: randomUUID() });
    expect(
      await claimIdempotencyKey(stack.db, scope(m.mid, key), new Date(), {
        ownerId: randomUUID(),
        claimId: randomUUID(),
      }),
    ).toEqual({ kind: 'conflict', reason: 'in_flight' });
    // Its lease row gone (a clean shutdown ends it; housekeeping removes old ones): free at once.
    await stack.db('api_processes').where({ id: live }).delete();
    expect(
      await claimIdempotencyKey(stack.db, scope(m.mid, key), new Date(), {
        ownerId: randomUUID(),
        claimId: randomUUID(),
      }),
    ).toEqual({ kind: 'claimed' });
  });

  it('each API server holds a lease row while it runs and ends it when it closes', async () => {
    const rows = await eventually(
      () =>
        stack.db('api_processes').where('heartbeat_at', '>', stack.db.raw(`clock_timestamp() - interval '5 seconds'`)),
      (r) => r.length >= 1,
      { describe: 'a lease row with a heartbeat in the last 5 s', intervalMs: 250 },
    );
    expect(rows[0]).toMatchObject({ heartbeat_at: expect.any(Date) });
  });

  it('stores a definitive refusal, but frees the key of an answer that says "retry with the same key"', async () => {
    const m = await seedMerchant(stack.db);
    const deps = { db: stack.db, clock: systemClock, logger: createLogger({ level: 'silent' }) };
    const call = (key: string) => ({
      merchantId: m.mid,
      key,
      operation: 'capture',
      request: { amount: 100 },
      requestId: randomUUID(),
    });
    const refusing = (name: ErrorName) => async (): Promise<Answer> => {
      throw new ApiError(name);
    };
    const succeeding = async (): Promise<Answer> => ({ status: 200, body: { ok: true } });

    // 409 order_busy (another command held the order): nothing was decided; the retry runs.
    const busyKey = randomUUID();
    await expect(runOnce(deps, undefined, call(busyKey), refusing('order_busy'))).rejects.toMatchObject({
      errorName: 'order_busy',
    });
    expect(await runOnce(deps, undefined, call(busyKey), succeeding)).toEqual({
      status: 200,
      text: '{"ok":true}',
      replayed: false,
      answer: { status: 200, body: { ok: true } }, // it ran for this request
    });

    // 409 order_not_capturable is the order's answer: replayed to the retry, which does not run.
    const refusedKey = randomUUID();
    const refused = await runOnce(deps, undefined, call(refusedKey), refusing('order_not_capturable'));
    expect(refused).toMatchObject({ status: 409, replayed: false });
    const replay = await runOnce(deps, undefined, call(refusedKey), succeeding);
    expect(replay).toEqual({ status: 409, text: refused.text, replayed: true });
    expect(JSON.parse(replay.text).error.id).toBe('409004');
  });
});

/** A raw connection from `localAddress` that sends at most part of its headers, then waits. */
interface StalledSocket {
  socket: net.Socket;
  connectedAt?: number;
  closedAt?: number;
  received: string;
}

function stallFrom(localAddress: string, port: number, partialHeaders: boolean): StalledSocket {
  const socket = net.connect({ port, host: '127.0.0.1', localAddress });
  const stalled: StalledSocket = { socket, received: '' };
  socket.on('connect', () => {
    stalled.connectedAt = Date.now();
    if (partialHeaders) socket.write('GET /v1/health/live HTTP/1.1\r\nhost: x\r\n');
  });
  socket.on('data', (d) => {
    stalled.received += d.toString();
  });
  socket.on('error', () => {}); // a refused socket may see ECONNRESET: its close is what counts
  socket.on('close', () => {
    stalled.closedAt = Date.now();
  });
  return stalled;
}

describe('HTTP server hardening', () => {
  /** Linux routes all of 127.0.0.0/8 to lo: a second client address on this machine. */
  const STALLER = '127.0.0.2';
  const HEADERS_TIMEOUT_MS = 3_000;
  const PER_ADDRESS = 10;
  /** Below the staller's 60 sockets: without the per-address cap they would take it all. */
  const TOTAL = 50;
  let stack: TestStack;
  let server: Server;
  let guarded: Server;
  beforeAll(async () => {
    stack = await startTestStack({ inProcessWorker: false });
    const deps = {
      config: stack.config,
      db: stack.db,
      temporal: stack.connection,
      temporalClient: stack.client,
      logger: stack.logs.logger,
    };
    server = await listen(deps, '127.0.0.1', 0, {
      requestTimeoutMs: 1_000,
      headersTimeoutMs: 1_000,
      keepAliveTimeoutMs: 5_000,
      maxConnections: 50,
      maxConnectionsPerAddress: 50,
    });
    guarded = await listen(deps, '127.0.0.1', 0, {
      requestTimeoutMs: 30_000,
      headersTimeoutMs: HEADERS_TIMEOUT_MS,
      keepAliveTimeoutMs: 5_000,
      maxConnections: TOTAL,
      maxConnectionsPerAddress: PER_ADDRESS,
    });
  });
  afterAll(async () => {
    if (server) await closeServer(server);
    if (guarded) await closeServer(guarded);
    await stack?.stop();
  });

  it('closes a connection whose body arrives too slowly (408), within seconds not 300 s', async () => {
    const { port } = server.address() as AddressInfo;
    const socket = net.connect(port, '127.0.0.1');
    const started = Date.now();
    let received = '';
    const closed = new Promise<void>((resolve) => {
      socket.on('data', (d) => {
        received += d.toString();
      });
      socket.on('close', () => resolve());
      socket.on('error', () => resolve());
    });
    socket.write(
      'POST /v1/oauth2/token HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"gr',
    );
    await closed;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(received).toMatch(/^HTTP\/1\.1 408/);
  });

  it('caps open connections', () => {
    expect(server.maxConnections).toBe(50);
    expect(server.requestTimeout).toBe(1_000);
    expect(server.headersTimeout).toBe(1_000);
  });

  it('serves a second address while 60 stalled sockets from one hold their share, closed at the header timeout', async () => {
    const { port } = guarded.address() as AddressInfo;
    const refusedBefore = (await connectionsRefused.get()).values.find((v) => v.labels.cap === 'per_address');
    const stalled = Array.from({ length: 60 }, (_, i) => stallFrom(STALLER, port, i % 2 === 0));
    try {
      const isOpen = (s: StalledSocket) => s.connectedAt !== undefined && s.closedAt === undefined;
      // Past the per-address cap each is closed on arrival, long before any header deadline.
      await eventually(
        () => stalled.filter((s) => s.closedAt !== undefined).length,
        (closed) => closed >= 60 - PER_ADDRESS,
        { describe: `the staller's sockets past ${PER_ADDRESS} to be refused`, timeoutMs: HEADERS_TIMEOUT_MS / 2 },
      );
      expect(stalled.filter(isOpen)).toHaveLength(PER_ADDRESS);
      const refused = stalled.filter((s) => s.closedAt !== undefined);
      expect(refused.every((s) => s.received === '')).toBe(true);
      const refusedAfter = (await connectionsRefused.get()).values.find((v) => v.labels.cap === 'per_address');
      expect((refusedAfter?.value ?? 0) - (refusedBefore?.value ?? 0)).toBe(60 - PER_ADDRESS);

      // The other address is served while the staller still holds all it may.
      const served = await Promise.all(
        Array.from({ length: 5 }, () => fetch(`http://127.0.0.1:${port}/v1/health/live`).then((r) => r.status)),
      );
      expect(served).toEqual([200, 200, 200, 200, 200]);
      expect(stalled.filter(isOpen)).toHaveLength(PER_ADDRESS);

      // The held ones are answered 408 and closed at the header deadline (checked every second),
      // not up to 30 s later.
      const held = stalled.filter((s) => !refused.includes(s));
      await eventually(
        () => held.filter((s) => s.closedAt === undefined).length,
        (open) => open === 0,
        { describe: 'the held sockets to be closed at the header timeout', timeoutMs: HEADERS_TIMEOUT_MS + 3_000 },
      );
      for (const s of held) {
        expect(s.received).toMatch(/^HTTP\/1\.1 408/);
        const heldMs = (s.closedAt as number) - (s.connectedAt as number);
        expect(heldMs).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 100);
        expect(heldMs).toBeLessThanOrEqual(HEADERS_TIMEOUT_MS + 2_500); // one 1 s check, a busy machine
      }
      // Its share is free again: the staller's address is served too.
      const again = await new Promise<number | undefined>((resolve, reject) =>
        http
          .get({ host: '127.0.0.1', port, path: '/v1/health/live', localAddress: STALLER, agent: false }, (res) => {
            res.resume();
            resolve(res.statusCode);
          })
          .on('error', reject),
      );
      expect(again).toBe(200);
    } finally {
      for (const s of stalled) s.socket.destroy();
    }
  });
});
