import { randomUUID } from 'node:crypto';
import { createDb, type Db } from '../../src/db/knex';
import { persistOrder } from '../../src/db/repositories/orders';
import type { PersistOrderInput } from '../../src/domain/orders/contracts';
import { startWorkerWithRelay } from '../../src/worker';
import { draftOf } from '../../src/workflows/order/evaluate';
import { Order } from '../../src/workflows/order/order';
import { callApi } from '../helpers/api-client';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { eventually } from '../helpers/eventually';
import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { evaluateInput, orderRow, vaultTestCard } from '../helpers/orders';
import { startTestStack, type TestStack } from '../helpers/stack';
import { sharedWorkflowBundle } from '../helpers/temporal';

interface Sent {
  sql: string;
  /** Set by knex on a statement sent inside a transaction (BEGIN and COMMIT included). */
  __knexTxId?: string;
}

/** Issue 32: the read model's write of a transition (order row, transition, events) is one statement. */
describe('the read model’s write of a transition', () => {
  describe('persistOrder', () => {
    let database: TestDatabase;
    let owner: { mid: string; pid: string };
    const sent: Sent[] = [];
    beforeAll(async () => {
      database = await createTestDatabase();
      owner = await seedMerchant(database.db);
      database.db.on('query', (q: Sent) => sent.push(q));
    });
    afterAll(async () => {
      await database?.drop();
    });

    const at = new Date('2026-11-29T10:00:00.000Z');
    function firstState(): PersistOrderInput['state'] {
      const start = {
        orderId: randomUUID(),
        orderSessionKey: randomUUID(),
        merchantId: owner.mid,
        partnerId: owner.pid,
        externalOrderId: `shop-${randomUUID()}`,
        isTestMode: true,
      };
      const card = { token: randomUUID(), brand: 'visa' as const, bin: '411111', last4: '1111' };
      return { ...draftOf(new Order(start), evaluateInput(card, at), at), status: 'Declined', version: 1 };
    }
    const cancelled = (state: PersistOrderInput['state']): PersistOrderInput => ({
      state: { ...state, status: 'Cancelled', version: 2, outcome: 'DECLINED', cancelledAtUtc: at.toISOString() },
      transition: { from: state.status, to: 'Cancelled', reason: 'cancel' },
      events: [{ occurredAt: at.toISOString(), event: { name: 'order.cancelled' } }],
    });
    const stored = async (orderId: string) => ({
      order: await orderRow(database.db, orderId),
      transitions: await database.db('order_transitions').where({ order_id: orderId }).orderBy('version'),
      events: await database.db('events').where({ order_id: orderId }).orderBy('sequence'),
    });

    it('sends the order row, its transition and its events as one statement, outside any transaction', async () => {
      const state = firstState();
      sent.length = 0;
      await persistOrder(database.db, {
        state,
        transition: { from: null, to: 'Declined', reason: 'evaluate' },
        events: [
          { occurredAt: at.toISOString(), event: { name: 'challenge.presented', expiresAt: '2026-11-29T11:00:00Z' } },
          { occurredAt: at.toISOString(), event: { name: 'challenge.failed', failedAt: '2026-11-29T10:30:00Z' } },
        ],
      });
      expect(sent).toHaveLength(1);
      expect(sent[0]?.__knexTxId).toBeUndefined();
      const { order, transitions, events } = await stored(state.orderId);
      expect(order).toMatchObject({ version: 1, status_name: 'Declined', external_order_id: state.externalOrderId });
      expect(transitions).toMatchObject([{ version: 1, from_status: null, to_status: 'Declined', reason: 'evaluate' }]);
      // In the order the workflow handed them over, with their public data.
      expect(events.map((e) => [e.name, e.data])).toEqual([
        ['challenge.presented', { ExpiresAt: '2026-11-29T11:00:00Z' }],
        ['challenge.failed', { FailedAt: '2026-11-29T10:30:00Z' }],
      ]);
    });

    it('a replayed write changes nothing; an older version never overwrites the newer row, yet its own transition lands once', async () => {
      const first = firstState();
      const second = cancelled(first);
      await persistOrder(database.db, second);
      await persistOrder(database.db, second);
      const afterReplay = await stored(first.orderId);
      expect(afterReplay.order).toMatchObject({ version: 2, status_name: 'Cancelled', outcome: 'DECLINED' });
      expect(afterReplay.transitions).toHaveLength(1);
      expect(afterReplay.events.map((e) => e.name)).toEqual(['order.cancelled']);

      // The version-1 write arrives late (an activity retried after the next one ran).
      sent.length = 0;
      await persistOrder(database.db, {
        state: first,
        transition: { from: null, to: 'Declined', reason: 'evaluate' },
        events: [],
      });
      expect(sent).toHaveLength(1);
      const afterStale = await stored(first.orderId);
      expect(afterStale.order).toEqual(afterReplay.order);
      expect(afterStale.transitions.map((t) => [t.version, t.to_status])).toEqual([
        [1, 'Declined'],
        [2, 'Cancelled'],
      ]);
      expect(afterStale.events).toEqual(afterReplay.events);
    });

    it('is all or nothing: a transition Postgres refuses leaves no order row and no event', async () => {
      const state = firstState();
      const refused = persistOrder(database.db, {
        state,
        transition: { from: null, to: 'Declined', reason: null as unknown as string },
        events: [{ occurredAt: at.toISOString(), event: { name: 'order.cancelled' } }],
      });
      await expect(refused).rejects.toMatchObject({ code: '23502' }); // not_null_violation
      expect(await database.db('orders').where({ id: state.orderId })).toEqual([]);
      expect(await database.db('events').where({ order_id: state.orderId })).toEqual([]);
    });
  });

  describe('in the worker', () => {
    let stack: TestStack;
    let workerDb: Db;
    let worker: { stop(): Promise<void> };
    const sent: Sent[] = [];

    beforeAll(async () => {
      stack = await startTestStack({ inProcessWorker: false });
      workerDb = createDb(stack.databaseUrl, 10, stack.logs.logger);
      workerDb.on('query', (q: Sent) => sent.push(q));
      worker = await startWorkerWithRelay({
        address: stack.temporalAddress,
        client: stack.client,
        config: stack.config,
        db: workerDb,
        logger: stack.logs.logger,
        workflowBundle: sharedWorkflowBundle(),
        relayIntervalMs: 100,
      });
    }, 120_000);
    afterAll(async () => {
      await worker?.stop();
      await workerDb?.destroy();
      await stack?.stop();
    });

    it('writes each transition of a CIT order with one statement on its pool', async () => {
      const merchant = await seedMerchant(stack.db);
      const token = await accessToken(stack.baseUrl, await seedKey(stack.db, merchant));
      const card = await vaultTestCard(stack.db, merchant.mid, '4111111111111111', stack.config.vaultKeys);
      const answer = await callApi(stack.baseUrl, token, 'POST', '/v1/evaluate', {
        idempotencyKey: randomUUID(),
        externalOrderId: `rt-${randomUUID()}`,
        transaction: { amount: 2500, currency: 'USD', responseCode: '51' },
        paymentMethod: { token: card.token },
      });
      expect(answer.status).toBe(200);
      expect(answer.body.outcome).toBe('APPROVED');
      const orderId = answer.body.orderId as string;
      const writesOf = (table: string) => sent.filter((q) => q.sql.includes(`insert into "${table}"`));
      // Every version of the order was written by one statement of its own, in no transaction.
      const { version } = await eventually(
        () => orderRow(stack.db, orderId),
        (row) => writesOf('orders').length === row.version,
        { describe: 'one order write per version' },
      );
      expect(version).toBeGreaterThanOrEqual(1);
      expect(writesOf('orders').every((q) => q.__knexTxId === undefined)).toBe(true);
      // Transitions and events went in those statements, never on their own.
      const alone = [...writesOf('order_transitions'), ...writesOf('events')].filter(
        (q) => !q.sql.includes('insert into "orders"'),
      );
      expect(alone).toEqual([]);
      const transitions = await stack.db('order_transitions').where({ order_id: orderId });
      expect(transitions.length).toBeGreaterThanOrEqual(1);
      expect(writesOf('order_transitions').length).toBeGreaterThanOrEqual(transitions.length);
    }, 120_000);
  });
});
