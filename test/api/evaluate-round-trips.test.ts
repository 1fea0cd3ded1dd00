import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { closeServer, listen } from '../../src/api/server';
import { createDb, type Db } from '../../src/db/knex';
import { callApi } from '../helpers/api-client';
import { eventually } from '../helpers/eventually';
import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { vaultTestCard } from '../helpers/orders';
import { startTestStack, type TestStack } from '../helpers/stack';

/**
 * Issue 32: the API side of an evaluate costs 2 round trips to Postgres (at most 3 asked). What counts: every
 * query the API's pool sends (knex's 'query' event: one per statement, or per multi-statement
 * simple query, each one round trip; a transaction's BEGIN and COMMIT would count too), but for
 * the process lease's heartbeat, which runs every second whatever the requests. The cache
 * notifications' LISTEN connection is not the pool's: it does no work per request.
 */
describe('round trips to Postgres of an evaluate, API side', () => {
  let stack: TestStack;
  let apiDb: Db;
  let server: Awaited<ReturnType<typeof listen>>;
  let base: string;
  const sent: string[] = [];

  beforeAll(async () => {
    stack = await startTestStack();
    apiDb = createDb(stack.databaseUrl, 10, stack.logs.logger);
    apiDb.on('query', (q: { sql: string }) => {
      if (!q.sql.includes('api_processes')) sent.push(q.sql);
    });
    server = await listen(
      {
        config: stack.config,
        db: apiDb,
        temporal: stack.connection,
        temporalClient: stack.client,
        logger: stack.logs.logger,
      },
      '127.0.0.1',
      0,
      stack.config.http,
    );
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 120_000);

  afterAll(async () => {
    if (server) await closeServer(server);
    await apiDb?.destroy();
    await stack?.stop();
  });

  /** Sends the evaluate and answers the statements the API's pool sent for it. */
  async function countedEvaluate(token: string, body: object, outcome: string): Promise<string[]> {
    sent.length = 0;
    const answer = await callApi(base, token, 'POST', '/v1/evaluate', body);
    expect(answer.status).toBe(200);
    expect(answer.body.outcome).toBe(outcome);
    return [...sent];
  }

  it('a CIT evaluate and an async MIT evaluate use 2 each, the first caching what the next need', async () => {
    const merchant = await seedMerchant(stack.db);
    const token = await accessToken(base, await seedKey(stack.db, merchant));
    const card = await vaultTestCard(stack.db, merchant.mid, '4111111111111111', stack.config.vaultKeys);
    const cit = () => ({
      idempotencyKey: randomUUID(),
      externalOrderId: `rt-${randomUUID()}`,
      transaction: { amount: 2500, currency: 'USD', responseCode: '51' },
      paymentMethod: { token: card.token },
    });
    const mit = () => ({ ...cit(), isMIT: true, isRecurring: true, subscription: { intervalCount: 1 } });
    // The caches serve once the notifications are live; the first evaluate fills them.
    await eventually(
      () =>
        apiDb('pg_stat_activity')
          .where({ application_name: 'payment-rescue-cache-listener', datname: apiDb.raw('current_database()') })
          .count('* as n'),
      (rows) => Number(rows[0]?.n) > 0,
      { describe: 'the API to listen for cache notifications' },
    );
    const first = await countedEvaluate(token, cit(), 'APPROVED');
    const citStatements = await countedEvaluate(token, cit(), 'APPROVED');
    const mitStatements = await countedEvaluate(token, mit(), 'SUBMITTED');
    expect({ cit: citStatements.length, mit: mitStatements.length }).toEqual({ cit: 2, mit: 2 });
    // The first paid for the bearer token; the next did not.
    expect(first.some((sql) => sql.includes('access_tokens'))).toBe(true);
    for (const statements of [citStatements, mitStatements]) {
      expect(statements.some((sql) => sql.includes('access_tokens'))).toBe(false);
      // The rate limit's token is taken in the idempotency claim's statement.
      expect(statements.filter((sql) => sql.includes('rate_limit_buckets'))).toHaveLength(1);
      expect(statements.find((sql) => sql.includes('rate_limit_buckets'))).toContain('insert into idempotency_keys');
      // The evaluate's reads (settings, order, card, its declines, widget session) ride in it too.
      expect(statements.find((sql) => sql.includes('rate_limit_buckets'))).toContain('from merchant_settings');
      // The other: the answer stored under the key.
      expect(statements.find((sql) => !sql.includes('rate_limit_buckets'))).toContain('update "idempotency_keys"');
    }
  }, 120_000);
});
