import { randomUUID } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { loadConfig } from '../../src/config';
import { derivedUuid } from '../../src/domain/ids';
import type { EvaluateInput } from '../../src/domain/orders/contracts';
import { orderTransitions } from '../../src/observability/metrics';
import { CLOSED, OrderClient } from '../../src/orders/order-client';
import { cancelUpdate, captureUpdate, evaluateUpdate, refundWorkflow } from '../../src/workflows';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { seedMerchant } from '../helpers/fixtures';
import { saveTrackedHistories, trackHistory } from '../helpers/histories';
import { evaluateInput, eventNames, orderRow, startOrder, vaultTestCard } from '../helpers/orders';
import { createTimeSkippingEnv, startTimeSkippingWorker, uniqueTaskQueue } from '../helpers/temporal';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('order workflow (time-skipping server, real activities and Postgres)', () => {
  let env: TestWorkflowEnvironment;
  let database: TestDatabase;
  let worker: Awaited<ReturnType<typeof startTimeSkippingWorker>>;
  let owner: { mid: string; pid: string };
  const taskQueue = uniqueTaskQueue('orders');
  const config = loadConfig({});
  const cards: Record<string, EvaluateInput['card']> = {};

  beforeAll(async () => {
    [env, database] = await Promise.all([createTimeSkippingEnv(), createTestDatabase()]);
    owner = await seedMerchant(database.db);
    for (const pan of [
      '4111111111111111',
      '4000000000000002',
      '4000000000003220',
      '4000000000000341',
      '4000000000009995',
      '4000000000000119',
    ]) {
      cards[pan] = await vaultTestCard(database.db, owner.mid, pan, config.vaultKeys);
    }
    worker = await startTimeSkippingWorker(env, { taskQueue, config, db: database.db });
  });
  afterAll(async () => {
    if (env) await saveTrackedHistories(env.client);
    await worker?.stop();
    await env?.teardown();
    await database?.drop();
  });

  const card = (pan: string) => cards[pan] as EvaluateInput['card'];
  const now = async () => new Date(await env.currentTimeMs());
  const start = async (pan: string, overrides: Parameters<typeof evaluateInput>[2] = {}) =>
    startOrder(env.client, taskQueue, owner, evaluateInput(card(pan), await now(), overrides));
  /**
   * An order of a merchant of its own: the card networks' retry budget counts the card's declines
   * across the merchant's orders (docs/network-rules.md), so a test of the window alone must not
   * share the card with the other tests' rescues.
   */
  const startAlone = async (pan: string, overrides: Parameters<typeof evaluateInput>[2] = {}) => {
    const alone = await seedMerchant(database.db);
    const vaulted = await vaultTestCard(database.db, alone.mid, pan, config.vaultKeys);
    return startOrder(env.client, taskQueue, alone, evaluateInput(vaulted, await now(), overrides));
  };
  const handle = (workflowId: string) => env.client.workflow.getHandle(workflowId);
  const asyncMit = { flow: 'ASYNC_MIT', isMIT: true, isRecurring: true, intervalCount: 1 } as const;
  const syncMit = { flow: 'SYNC_MIT', isMIT: true, isRecurring: true, intervalCount: 1 } as const;

  /** rescue_order_transitions_total for async MIT orders, by the status moved to (the worker's activities count). */
  const asyncMitTransitions = async () =>
    Object.fromEntries(
      (await orderTransitions.get()).values
        .filter((v) => v.labels.flow === 'async_mit')
        .map((v) => [String(v.labels.to), v.value]),
    );

  it('async MIT: answers SUBMITTED, then is rescued on the third retry (order.completed)', async () => {
    const counted = await asyncMitTransitions();
    const { result, orderId } = await start('4000000000000341', asyncMit);
    expect(result).toMatchObject({ kind: 'answer', outcome: 'SUBMITTED', status: 'Processing' });
    expect((await orderRow(database.db, orderId)).status).toBe(4);

    await env.sleep(5 * HOUR); // retries at +1 min and +1 h soft-decline
    expect(await orderRow(database.db, orderId)).toMatchObject({ status: 4, service_attempts: 2 });
    await env.sleep(2 * HOUR); // the third, at +6 h, approves
    const row = await orderRow(database.db, orderId);
    expect(row).toMatchObject({ status: 7, status_name: 'Completed', service_attempts: 3, captured_amount: 1999 });
    expect(row.confirmation_id).toBeTruthy();
    expect(Number(row.completed_at) - Number(row.created_at)).toBeGreaterThanOrEqual(6 * HOUR);
    expect(await eventNames(database.db, orderId)).toEqual(['order.completed']);
    // Each status the order moved to is counted once; the soft declines moved it nowhere.
    const now = await asyncMitTransitions();
    expect({
      processing: (now.processing ?? 0) - (counted.processing ?? 0),
      completed: (now.completed ?? 0) - (counted.completed ?? 0),
    }).toEqual({ processing: 1, completed: 1 });
  });

  it('async MIT: expires exactly at expiryDateUtc, not before', async () => {
    const expiry = new Date((await now()).getTime() + 3 * DAY);
    const { orderId } = await startAlone('4000000000009995', { ...asyncMit, expiryDateUtc: expiry.toISOString() });
    await env.sleep(3 * DAY - 2 * SECOND);
    expect(await orderRow(database.db, orderId)).toMatchObject({ status: 4, expired_at: null });
    expect(await eventNames(database.db, orderId)).toEqual([]);
    await env.sleep(4 * SECOND);
    const row = await orderRow(database.db, orderId);
    expect(row).toMatchObject({ status: 2, status_name: 'Cancelled', service_attempts: 5 }); // +1m, 1h, 6h, 1d, 2d
    expect(row.expired_at?.toISOString()).toBe(expiry.toISOString());
    expect(await eventNames(database.db, orderId)).toEqual(['order.expired']);
  });

  it('async MIT: holds a 21-day window open for 21 days of workflow time, then expires it', async () => {
    const expiry = new Date((await now()).getTime() + 21 * DAY);
    const { orderId } = await startAlone('4000000000009995', { ...asyncMit, expiryDateUtc: expiry.toISOString() });
    await env.sleep(21 * DAY - 2 * SECOND);
    expect(await orderRow(database.db, orderId)).toMatchObject({ status: 4, expired_at: null });
    await env.sleep(4 * SECOND);
    const row = await orderRow(database.db, orderId);
    expect(row).toMatchObject({ status: 2, status_name: 'Cancelled' });
    expect(row.expired_at?.toISOString()).toBe(expiry.toISOString());
    expect(await eventNames(database.db, orderId)).toEqual(['order.expired']);
  });

  it('async MIT: without expiryDateUtc, expires at the merchant default window', async () => {
    const declinedAt = await now();
    const { orderId } = await startAlone('4000000000009995', {
      ...asyncMit,
      declinedAtUtc: declinedAt.toISOString(),
      settings: { defaultExpiryHours: 48 },
    });
    await env.sleep(48 * HOUR - 2 * SECOND);
    expect((await orderRow(database.db, orderId)).status).toBe(4);
    await env.sleep(4 * SECOND);
    const row = await orderRow(database.db, orderId);
    expect(row.status).toBe(2);
    expect(row.expired_at?.getTime()).toBe(declinedAt.getTime() + 48 * HOUR);
    expect(await eventNames(database.db, orderId)).toEqual(['order.expired']);
  });

  it('async MIT: a hard decline on a retry ends the rescue at once, never retried', async () => {
    const { orderId } = await start('4000000000000002', asyncMit);
    await env.sleep(2 * MINUTE);
    expect(await orderRow(database.db, orderId)).toMatchObject({ status: 2, service_attempts: 1 });
    await env.sleep(10 * DAY);
    expect((await orderRow(database.db, orderId)).service_attempts).toBe(1);
    expect(await eventNames(database.db, orderId)).toEqual(['order.expired']);
  });

  it("takes the card's retry budget the API read with the evaluate: allowed, accepted; held, declined at once", async () => {
    const allowed = { used: 2, limit: 15, resetsAt: null, notBefore: null, heldBy: null };
    const accepted = await startAlone('4000000000000341', { ...asyncMit, cardBudget: allowed });
    expect(accepted.result).toMatchObject({ outcome: 'SUBMITTED', status: 'Processing' });
    const notBefore = new Date((await now()).getTime() + 30 * DAY).toISOString();
    const held = { ...allowed, used: 1, notBefore, heldBy: 'visa_category_1' };
    const declined = await startAlone('4000000000000341', { ...asyncMit, cardBudget: held });
    expect(declined.result).toMatchObject({ outcome: 'DECLINED', status: 'Declined' });
    expect((await orderRow(database.db, declined.orderId)).reasons).toContain('retry_budget_exhausted');
  });

  it('answers DECLINED at once for a hard original decline code, with nothing to retry', async () => {
    const { result, orderId } = await start('4111111111111111', { ...asyncMit, responseCode: '41' });
    expect(result).toMatchObject({ outcome: 'DECLINED', status: 'Declined' });
    expect(await orderRow(database.db, orderId)).toMatchObject({ status: 8, service_attempts: 0 });
  });

  it('Sync MIT: captured one second before the cutoff completes the order', async () => {
    const { result, workflowId, orderId } = await start('4111111111111111', {
      ...syncMit,
      settings: { mitEvaluation: 'sync', syncMitWindowHours: 2 },
    });
    expect(result).toMatchObject({ outcome: 'CAPTUREREQUIRED', status: 'Capturerequired' });
    await env.sleep(2 * HOUR - SECOND);
    const captured = await handle(workflowId).executeUpdate(captureUpdate, { args: [{ amount: null }] });
    expect(captured).toMatchObject({ kind: 'captured', status: 'Completed', capturedAmount: 1999 });
    expect(await orderRow(database.db, orderId)).toMatchObject({ status: 7 });
    expect(await eventNames(database.db, orderId)).toEqual(['order.capturerequired', 'order.completed']);
  });

  it('Sync MIT: a further evaluate inside the window acts as the capture', async () => {
    const input = { ...syncMit, settings: { mitEvaluation: 'sync' as const, syncMitWindowHours: 1 } };
    const { workflowId, orderId } = await start('4111111111111111', input);
    await env.sleep(30 * MINUTE);
    const again = await handle(workflowId).executeUpdate(evaluateUpdate, {
      args: [evaluateInput(card('4111111111111111'), await now(), input)],
    });
    expect(again).toMatchObject({ outcome: 'APPROVED', status: 'Completed' });
    expect(await eventNames(database.db, orderId)).toEqual(['order.capturerequired', 'order.completed']);
  });

  it('Sync MIT: past the cutoff the order is Cancelled (2) with order.expired, never completed, and cannot be captured', async () => {
    const { workflowId, orderId } = await start('4111111111111111', {
      ...syncMit,
      settings: { mitEvaluation: 'sync', syncMitWindowHours: 2 },
    });
    await env.sleep(2 * HOUR + SECOND);
    const row = await orderRow(database.db, orderId);
    expect(row).toMatchObject({ status: 2, status_name: 'Cancelled' });
    expect(await eventNames(database.db, orderId)).toEqual(['order.capturerequired', 'order.expired']);
    // The workflow has closed: no capture or evaluate can reach it (the API answers DECLINED).
    await expect(handle(workflowId).executeUpdate(captureUpdate, { args: [{ amount: null }] })).rejects.toThrow();
  });

  it('Authorize flow (CIT): a capture window lapsing after 5 minutes cancels the order (2) with order.cancelled', async () => {
    const { result, orderId } = await start('4111111111111111', { transactionType: 'AUTHORIZATION' });
    expect(result).toMatchObject({ outcome: 'CAPTUREREQUIRED' });
    await env.sleep(5 * MINUTE - SECOND);
    expect((await orderRow(database.db, orderId)).status).toBe(5);
    await env.sleep(2 * SECOND);
    expect((await orderRow(database.db, orderId)).status).toBe(2);
    expect(await eventNames(database.db, orderId)).toEqual(['order.capturerequired', 'order.cancelled']);
  });

  it('CIT: approves (order.completed), declines, challenges (challenge.presented) and reports an unavailable processor', async () => {
    expect((await start('4111111111111111')).result).toMatchObject({ outcome: 'APPROVED', status: 'Completed' });
    expect((await start('4000000000000002')).result).toMatchObject({ outcome: 'DECLINED', status: 'Declined' });
    const challenged = await start('4000000000003220');
    expect(challenged.result).toMatchObject({ outcome: 'CHALLENGE', status: 'Onhold' });
    expect(await eventNames(database.db, challenged.orderId)).toEqual(['challenge.presented']);
    expect((await start('4000000000000119')).result).toMatchObject({ kind: 'rescue_unavailable' });
  });

  describe('the cancel matrix: every flow and state, cancellable or refused', () => {
    // Through the API's gateway: it retries a busy order, and reports a closed workflow as CLOSED.
    // The time-skipping server's workflow clock runs ahead of ours: no caller deadline.
    const cancel = (workflowId: string, via: 'cancel' | 'external-cancel' = 'cancel') =>
      new OrderClient(env.client, taskQueue, { callerDeadline: false }).command(workflowId, cancelUpdate, { via });

    it.each([
      ['CIT', 'Capturerequired', '4111111111111111', { transactionType: 'AUTHORIZATION' as const }, true],
      ['CIT', 'Completed', '4111111111111111', {}, false],
      ['CIT', 'Onhold', '4000000000003220', {}, false],
      ['ASYNC_MIT', 'Processing', '4000000000009995', asyncMit, true],
      [
        'SYNC_MIT',
        'Capturerequired',
        '4111111111111111',
        { ...syncMit, settings: { mitEvaluation: 'sync' as const } },
        true,
      ],
    ])('%s in %s: cancellable %s', async (_flow, status, pan, overrides, cancellable) => {
      const { result, workflowId, orderId } = await start(pan, overrides);
      expect(result).toMatchObject({ status });
      const answer = await cancel(workflowId);
      if (cancellable) {
        expect(answer).toEqual({ kind: 'cancelled', status: 'Cancelled' });
        expect((await orderRow(database.db, orderId)).status).toBe(2);
        expect((await eventNames(database.db, orderId)).filter((e) => e === 'order.cancelled')).toHaveLength(1);
      } else {
        // A final order's workflow has closed: the API answers from the read model.
        expect(answer).toEqual(
          status === 'Completed' ? CLOSED : { kind: 'refused', reason: 'not_cancellable', status },
        );
        expect((await orderRow(database.db, orderId)).status_name).toBe(status);
      }
    });

    it('ASYNC_MIT in Capturerequired (AUTHORIZATION) and SYNC_MIT Completed', async () => {
      const auth = await start('4111111111111111', { ...asyncMit, transactionType: 'AUTHORIZATION' });
      await env.sleep(2 * MINUTE);
      expect((await orderRow(database.db, auth.orderId)).status).toBe(5);
      expect(await cancel(auth.workflowId)).toEqual({ kind: 'cancelled', status: 'Cancelled' });

      const completed = await start('4111111111111111', { ...syncMit, settings: { mitEvaluation: 'sync' } });
      await handle(completed.workflowId).executeUpdate(captureUpdate, { args: [{ amount: null }] });
      expect(await cancel(completed.workflowId)).toBe(CLOSED);
      expect((await orderRow(database.db, completed.orderId)).status_name).toBe('Completed');
    });

    it('cancel plus external-cancel of one order give one cancellation', async () => {
      const { workflowId, orderId } = await start('4000000000009995', asyncMit);
      const answers = await Promise.all([cancel(workflowId, 'cancel'), cancel(workflowId, 'external-cancel')]);
      // One of them cancels; the other finds the order cancelled (or its workflow already closed).
      expect(answers).toContainEqual({ kind: 'cancelled', status: 'Cancelled' });
      for (const a of answers) expect([CLOSED, { kind: 'cancelled', status: 'Cancelled' }]).toContainEqual(a);
      expect(await eventNames(database.db, orderId)).toEqual(['order.cancelled']);
      expect(await database.db('order_transitions').where({ order_id: orderId, to_status: 'Cancelled' })).toHaveLength(
        1,
      );
    });
  });

  describe('refunds', () => {
    // As the API runs it: one refund workflow per refund, its id and refundId functions of the refund.
    const refund = async (orderId: string, amount: number | null, idempotencyKey: string | null = null) => {
      const kind = amount === null || amount === 1999 ? 'full' : 'partial';
      const tail = kind === 'full' ? 'full' : `partial:${idempotencyKey}`;
      const workflowId = `refund:${orderId}:${kind === 'full' ? 'full' : idempotencyKey}`;
      const handle = await env.client.workflow.start(refundWorkflow, {
        workflowId,
        taskQueue,
        args: [
          {
            refundId: derivedUuid('refund', orderId, tail),
            orderId,
            merchantId: owner.mid,
            kind,
            amount,
            idempotencyKey,
          },
        ],
        workflowIdConflictPolicy: 'USE_EXISTING',
        workflowIdReusePolicy: 'ALLOW_DUPLICATE',
      });
      trackHistory('refund', workflowId);
      return handle.result();
    };

    it('closes a completed order at once; a refund 30 days later works, and a second full refund refunds once', async () => {
      const { workflowId, orderId } = await start('4111111111111111');
      await expect(handle(workflowId).result()).resolves.toEqual({ status: 'Completed' });
      await env.sleep(30 * DAY);
      const first = await refund(orderId, null);
      expect(first).toMatchObject({ kind: 'refunded', amount: 1999, refundedAmount: 1999, status: 'Returned' });
      expect(await refund(orderId, 1999)).toMatchObject({ kind: 'refunded', replayed: true, amount: 1999 });
      expect(await database.db('refunds').where({ order_id: orderId })).toHaveLength(1);
      expect(await eventNames(database.db, orderId)).toEqual(['order.completed', 'order.refunded']);
    });

    it('de-duplicates full refunds by order: one refund, one order.refunded, the same TransactionId', async () => {
      const { orderId } = await start('4111111111111111');
      const first = await refund(orderId, null);
      const second = await refund(orderId, 1999);
      expect(first).toMatchObject({
        kind: 'refunded',
        amount: 1999,
        refundedAmount: 1999,
        status: 'Returned',
        replayed: false,
      });
      expect(second).toMatchObject({
        kind: 'refunded',
        transactionId: first.kind === 'refunded' ? first.transactionId : '',
        replayed: true,
      });
      expect(await eventNames(database.db, orderId)).toEqual(['order.completed', 'order.refunded']);
      expect(await database.db('refunds').where({ order_id: orderId })).toHaveLength(1);
      expect((await orderRow(database.db, orderId)).status).toBe(6);
      const [event] = (await database.db('events').where({ order_id: orderId, name: 'order.refunded' })) as Array<{
        data: Record<string, unknown>;
      }>;
      expect(event?.data).toMatchObject({
        Amount: 1999,
        Currency: 'USD',
        TransactionId: first.kind === 'refunded' ? first.transactionId : '',
      });
    });

    it('replays a partial refund sent again with its idempotencyKey, and refuses to refund more than was captured', async () => {
      const { orderId } = await start('4111111111111111');
      const key = randomUUID();
      const partial = await refund(orderId, 600, key);
      expect(partial).toMatchObject({ kind: 'refunded', amount: 600, refundedAmount: 600, status: 'Completed' });
      expect(await refund(orderId, 600, key)).toMatchObject({ replayed: true });
      expect(await refund(orderId, 1500, randomUUID())).toEqual({
        kind: 'refused',
        reason: 'refund_exceeds_captured',
        status: 'Completed',
      });
      expect(await refund(orderId, 1998, randomUUID())).toMatchObject({
        kind: 'refused',
        reason: 'refund_exceeds_captured',
      });
      expect(await refund(orderId, 1399, randomUUID())).toMatchObject({
        kind: 'refunded',
        refundedAmount: 1999,
        status: 'Returned',
      });
      expect(await eventNames(database.db, orderId)).toEqual(['order.completed', 'order.refunded', 'order.refunded']);
    });

    it('refuses to refund an order that is not completed', async () => {
      const { orderId } = await start('4111111111111111', { transactionType: 'AUTHORIZATION' });
      expect(await refund(orderId, null)).toEqual({
        kind: 'refused',
        reason: 'not_refundable',
        status: 'Capturerequired',
      });
    });
  });
});
