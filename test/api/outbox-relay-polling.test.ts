import { createDb, type Db } from '../../src/db/knex';
import { startOutboxRelay } from '../../src/outbox-relay';
import { eventually } from '../helpers/eventually';
import { seedMerchant } from '../helpers/fixtures';
import { completedOrderEvent } from '../helpers/outbox';
import { startTestStack, type TestStack } from '../helpers/stack';

/**
 * What the outbox relay sends to Postgres: every poll, idle or not, is the one fan-out statement
 * (no BEGIN and COMMIT: an idle transaction was three round trips, four times a second, for
 * nothing; a busy one was five). The stack runs no worker of its own, so this relay is the only one.
 */
describe('the outbox relay polling', () => {
  let stack: TestStack;
  let relayDb: Db;
  let relay: ReturnType<typeof startOutboxRelay> | undefined;
  const sent: string[] = [];

  beforeAll(async () => {
    stack = await startTestStack({ inProcessWorker: false });
    relayDb = createDb(stack.databaseUrl, 2, stack.logs.logger);
    relayDb.on('query', (q: { sql: string }) => sent.push(q.sql.toLowerCase()));
  }, 120_000);

  afterAll(async () => {
    await relay?.stop();
    await relayDb?.destroy();
    await stack?.stop();
  });

  it('polls with one statement, idle or with an event waiting, and never opens a transaction', async () => {
    relay = startOutboxRelay({
      db: relayDb,
      client: stack.client,
      taskQueue: stack.config.temporal.webhookTaskQueue,
      logger: stack.logs.logger,
      intervalMs: 20,
    });
    await eventually(
      () => sent.length,
      (polls) => polls >= 5,
      { describe: 'five idle polls', timeoutMs: 10_000, intervalMs: 20 },
    );
    // Besides the polls, the first loop sweeps overdue deliveries (then once a minute), naming
    // each endpoint once.
    const first = sent.splice(0);
    expect(first.filter((sql) => sql.includes('from "webhook_deliveries"'))).toEqual([
      expect.stringMatching(/^select distinct "endpoint_id" from "webhook_deliveries" where /),
    ]);
    const idle = first.filter((sql) => !sql.includes('from "webhook_deliveries"'));
    expect(idle.length).toBeGreaterThanOrEqual(4);
    expect(new Set(idle).size).toBe(1);
    expect(idle[0]).toMatch(/^with claimed as \(\s*select id, name, partner_id, merchant_id from events/);
    expect(idle[0]).toContain('for update skip locked');

    const merchant = await seedMerchant(stack.db);
    const event = completedOrderEvent(merchant, 'relay-polling');
    await stack.db('events').insert(event);
    await eventually(
      async () => (await stack.db('events').where({ id: event.id }).first())?.dispatched_at,
      (dispatchedAt) => dispatchedAt instanceof Date,
      { describe: 'the event dispatched', timeoutMs: 10_000, intervalMs: 20 },
    );
    expect(sent.length).toBeGreaterThan(0);
    expect(new Set(sent)).toEqual(new Set(idle));
  });
});
