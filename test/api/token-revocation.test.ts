import type { ChildProcess } from 'node:child_process';
import { freePort } from '../../scripts/cluster/free-ports';
import { CacheNotifications } from '../../src/db/cache-notifications';
import { revokeApiKey } from '../../src/db/repositories/api-keys';
import { callApi } from '../helpers/api-client';
import { eventually } from '../helpers/eventually';
import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { capturedLogger } from '../helpers/log-capture';
import { startTestStack, type TestStack } from '../helpers/stack';
import { startApiProcess, stopApiProcess } from '../helpers/worker-process';

/**
 * Issue 32: bearer tokens are checked from each API process's cache, and a revocation reaches
 * every process within one second (Postgres NOTIFY, src/db/cache-notifications.ts), also after
 * the process's LISTEN connection was killed.
 */

/** The merchant's settings, read with `token`: 200 while it is good, 401 once refused. */
const probe = async (base: string, token: string, merchantId: string) => {
  const answer = await callApi(base, token, 'GET', `/v1/merchants/${merchantId}/settings`);
  return { status: answer.status, id: answer.body?.error?.id as string | undefined };
};

describe('a revoked token is refused by every API process within one second', () => {
  let stack: TestStack;
  const apis: ChildProcess[] = [];
  const output: string[] = [];

  beforeAll(async () => {
    stack = await startTestStack();
  }, 120_000);

  afterAll(async () => {
    for (const api of apis) await stopApiProcess(api);
    await stack?.stop();
  });

  it('two API processes on one database both refuse it within a second of the revoke answer', async () => {
    const urls: string[] = [];
    for (const port of [await freePort(), await freePort()]) {
      const started = await startApiProcess(stack, output, port, { LOG_LEVEL: 'warn' });
      apis.push(started.process);
      urls.push(started.url);
    }
    const merchant = await seedMerchant(stack.db);
    const key = await seedKey(stack.db, merchant, ['settings']);
    const admin = await accessToken(stack.baseUrl, await seedKey(stack.db, { pid: merchant.pid }, ['api_keys']));
    const token = await accessToken(urls[0] as string, key);
    // Known (and so cached) by both processes, as good.
    for (const url of urls) expect(await probe(url, token, merchant.mid)).toEqual({ status: 200, id: undefined });

    const revoked = await callApi(urls[0] as string, admin, 'DELETE', `/v1/api-keys/${key.clientId}`);
    expect(revoked.status).toBe(200);
    const answeredAt = Date.now();
    await eventually(
      () => Promise.all(urls.map((url) => probe(url, token, merchant.mid))),
      (answers) => answers.every((a) => a.status === 401 && a.id === '401002'),
      { describe: 'both API processes to refuse the revoked token', timeoutMs: 1_000, intervalMs: 50 },
    );
    expect(Date.now() - answeredAt).toBeLessThan(1_500); // the deadline above, plus its last probe
  }, 180_000);

  it('the process that answered the revoke refuses the token on the very next request', async () => {
    const merchant = await seedMerchant(stack.db);
    const admin = await accessToken(stack.baseUrl, await seedKey(stack.db, { pid: merchant.pid }, ['api_keys']));
    for (let round = 0; round < 10; round += 1) {
      const key = await seedKey(stack.db, merchant, ['settings']);
      const token = await accessToken(stack.baseUrl, key);
      expect(await probe(stack.baseUrl, token, merchant.mid)).toEqual({ status: 200, id: undefined }); // now cached
      expect((await callApi(stack.baseUrl, admin, 'DELETE', `/v1/api-keys/${key.clientId}`)).status).toBe(200);
      expect(await probe(stack.baseUrl, token, merchant.mid)).toEqual({ status: 401, id: '401002' });
    }
  });

  it('a token issued leaves every cache as it is; a token deleted tells them', async () => {
    const heard: string[] = [];
    const notifications = CacheNotifications.forDb(stack.db, capturedLogger().logger).start();
    notifications.onInvalidate((table) => {
      if (table === 'access_tokens') heard.push(table);
    });
    try {
      await eventually(
        async () => notifications.isLive(),
        (live) => live,
        { describe: 'the listener to be live', timeoutMs: 5_000, intervalMs: 20 },
      );
      const merchant = await seedMerchant(stack.db);
      const key = await seedKey(stack.db, merchant, ['settings']);
      await notifications.catchUp();
      expect(heard).toEqual([]);
      // Issued through the token endpoint (its insert and its housekeeping delete), twice.
      await accessToken(stack.baseUrl, key);
      await accessToken(stack.baseUrl, key);
      await notifications.catchUp(); // every notification committed before has arrived
      expect(heard).toEqual([]);
      // A deleted token may be one a cache holds: every process hears of it.
      await stack.db('access_tokens').where({ api_key_id: key.clientId }).delete();
      await notifications.catchUp();
      expect(heard).toEqual(['access_tokens']);
    } finally {
      await notifications.stop();
    }
  });

  it('refuses within a second while its LISTEN connection is down, and caches again once back', async () => {
    const listeners = () =>
      stack.db
        .select('pid')
        .from('pg_stat_activity')
        .where({ application_name: 'payment-rescue-cache-listener', datname: stack.db.raw('current_database()') })
        .then((rows: Array<{ pid: number }>) => rows.map((r) => r.pid));
    const merchant = await seedMerchant(stack.db);
    const key = await seedKey(stack.db, merchant, ['settings']);
    const token = await accessToken(stack.baseUrl, key);
    expect(await probe(stack.baseUrl, token, merchant.mid)).toMatchObject({ status: 200 });
    // The in-process API (this stack's) listens; the two processes above may still too.
    const before = await eventually(listeners, (pids) => pids.length > 0, { describe: 'a listener' });
    await stack.db.raw('select pg_terminate_backend(pid) from unnest(?::int[]) as pid', [before]);
    await revokeApiKey(stack.db, key.clientId, new Date());
    const revokedAt = Date.now();
    await eventually(
      () => probe(stack.baseUrl, token, merchant.mid),
      (a) => a.status === 401 && a.id === '401002',
      { describe: 'the revoked token refused with the listener down', timeoutMs: 1_000, intervalMs: 50 },
    );
    expect(Date.now() - revokedAt).toBeLessThan(1_500);

    // It listens again (a new backend), and a revocation then reaches it through the notification.
    await eventually(listeners, (pids) => pids.some((pid) => !before.includes(pid)), {
      describe: 'the listener to reconnect',
      timeoutMs: 5_000,
    });
    const second = await seedKey(stack.db, merchant, ['settings']);
    const secondToken = await accessToken(stack.baseUrl, second);
    expect(await probe(stack.baseUrl, secondToken, merchant.mid)).toMatchObject({ status: 200 });
    await revokeApiKey(stack.db, second.clientId, new Date());
    const secondAt = Date.now();
    await eventually(
      () => probe(stack.baseUrl, secondToken, merchant.mid),
      (a) => a.status === 401,
      { describe: 'the second revoked token refused', timeoutMs: 1_000, intervalMs: 50 },
    );
    expect(Date.now() - secondAt).toBeLessThan(1_500);
  }, 120_000);
});
