import { randomUUID } from 'node:crypto';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import type { OrderActivities } from '../../src/activities/orders';
import type { ProcessorActivities } from '../../src/activities/processor';
import type { RetryBudgetActivities } from '../../src/activities/retry-budget';
import { evaluateChargeDecision } from '../../src/domain/orders/charge-decision';
import type {
  ChargeInput,
  ChargeResult,
  EvaluateInput,
  LedgerCall,
  OrderResume,
  PersistOrderInput,
} from '../../src/domain/orders/contracts';
import { outboxEvent } from '../../src/domain/orders/domain-events';
import { FAILURE } from '../../src/domain/orders/failures';
import type { Flow } from '../../src/domain/orders/status';
import { SEARCH_ATTRIBUTES } from '../../src/domain/search-attributes';
import { workflowSpanSinks } from '../../src/observability/temporal-tracing';
import {
  cancelUpdate,
  captureUpdate,
  challengeUpdate,
  evaluateUpdate,
  orderStateQuery,
  orderWorkflow,
} from '../../src/workflows';
import { orderStartSearchAttributes } from '../../src/workflows/search-attributes';
import { eventually } from '../helpers/eventually';
import { saveTrackedHistories, trackHistory } from '../helpers/histories';
import { evaluateInput } from '../helpers/orders';
import { createTimeSkippingEnv, sharedWorkflowBundle, uniqueTaskQueue } from '../helpers/temporal';

const HOUR = 3_600_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const card = { token: randomUUID(), brand: 'visa', bin: '411111', last4: '1111' };
const approveAll = async (_: ChargeInput): Promise<ChargeResult> => ({ result: 'approved', authorizationId: 'auth-1' });

/**
 * The order workflow alone, with typed fake activities (no Postgres, no processor): the branches
 * the real-stack tests cannot reach on demand — a database that refuses a write, a database that
 * does not answer while a caller waits, the processor failing during an async retry, and the exact
 * persistence calls each flow makes.
 */
describe('order workflow with fake activities', () => {
  let env: TestWorkflowEnvironment;
  beforeAll(async () => {
    env = await createTimeSkippingEnv();
  });
  afterAll(async () => {
    if (env) await saveTrackedHistories(env.client);
    await env?.teardown();
  });

  function fakes(overrides: Partial<OrderActivities & ProcessorActivities & RetryBudgetActivities> = {}) {
    const persisted: PersistOrderInput[] = [];
    const activities: OrderActivities & ProcessorActivities & RetryBudgetActivities = {
      // No card of these has a network-rule decline: its budget never holds a charge back.
      cardRetryBudget: jest.fn(async () => null),
      persistOrder: jest.fn(async (input: PersistOrderInput) => {
        persisted.push(input);
      }),
      processorCharge: jest.fn(approveAll),
      processorCapture: jest.fn(async ({ call }: { call: LedgerCall }) => ({
        captureId: `cap-${call.key}`,
        key: call.key,
      })),
      processorVoid: jest.fn(async ({ call }: { call: LedgerCall }) => ({ key: call.key })),
      processorReverse: jest.fn(async ({ call }: { call: LedgerCall }) => ({ key: call.key })),
      processorRefund: jest.fn(async (input: { refundId: string }) => ({ processorReference: `rf_${input.refundId}` })),
      ...overrides,
    };
    return { activities, persisted };
  }

  async function withWorker<T>(activities: object, run: (taskQueue: string) => Promise<T>): Promise<T> {
    const taskQueue = uniqueTaskQueue('isolated');
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: sharedWorkflowBundle(),
      sinks: workflowSpanSinks(), // the bundle's tracing interceptors export through it (a no-op here)
      activities,
    });
    return worker.runUntil(run(taskQueue));
  }

  /**
   * `chargeRecordsDecision`: the first evaluate's charge records the order it decides (as the API
   * starts runs). `flow`: started with the search attributes the API starts an order of it with.
   */
  const start = (taskQueue: string, resume?: OrderResume, chargeRecordsDecision = false, flow?: Flow) => {
    const args = {
      orderId: randomUUID(),
      orderSessionKey: randomUUID(),
      merchantId: randomUUID(),
      partnerId: randomUUID(),
      externalOrderId: `ext-${randomUUID()}`,
      isTestMode: true,
      ...(resume ? { resume } : {}),
      ...(chargeRecordsDecision ? { chargeRecordsDecision } : {}),
    };
    return env.client.workflow.start(orderWorkflow, {
      taskQueue,
      workflowId: `order:isolated:${randomUUID()}`,
      args: [args],
      ...(flow ? { typedSearchAttributes: orderStartSearchAttributes({ ...args, flow }) } : {}),
    });
  };
  /** An async MIT evaluate answered SUBMITTED, then its rescue run to the end: Completed. */
  const rescuedAsyncMit = async (handle: Awaited<ReturnType<typeof start>>) => {
    const asyncMit = evaluateInput(card, new Date(await env.currentTimeMs()), {
      flow: 'ASYNC_MIT',
      isMIT: true,
      isRecurring: true,
      intervalCount: 1,
    });
    expect(await handle.executeUpdate(evaluateUpdate, { args: [asyncMit] })).toMatchObject({ outcome: 'SUBMITTED' });
    expect(await handle.result()).toEqual({ status: 'Completed' });
  };
  const failureTypeOf = (err: unknown) =>
    err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure ? err.cause.type : undefined;

  it('CIT sale: one charge (attempt 1, keyed by its ledger row), one write Draft -> Completed with order.completed', async () => {
    const { activities, persisted } = fakes();
    await withWorker(activities, async (taskQueue) => {
      const handle = await start(taskQueue);
      const answer = await handle.executeUpdate(evaluateUpdate, { args: [evaluateInput(card, new Date())] });
      expect(answer).toMatchObject({ kind: 'answer', outcome: 'APPROVED', status: 'Completed' });
      expect(await handle.result()).toEqual({ status: 'Completed' });
    });
    expect(activities.processorCharge).toHaveBeenCalledTimes(1);
    const [charge] = (activities.processorCharge as jest.Mock).mock.calls[0] as [ChargeInput];
    expect(charge).toMatchObject({ attempt: 1, idempotencyKey: expect.stringMatching(UUID) });
    expect(
      persisted.map((p) => [p.transition?.from ?? null, p.state.status, p.events.map((e) => outboxEvent(e).name)]),
    ).toEqual([[null, 'Completed', ['order.completed']]]);
  });

  it('the same evaluate sent again (same idempotencyKey) is answered as the first time, never taken as a capture', async () => {
    const { activities } = fakes();
    await withWorker(activities, async (taskQueue) => {
      const handle = await start(taskQueue);
      const now = new Date(await env.currentTimeMs());
      const syncMit = evaluateInput(card, now, {
        flow: 'SYNC_MIT',
        isMIT: true,
        isRecurring: true,
        intervalCount: 1,
        idempotencyKey: randomUUID(),
      });
      const first = await handle.executeUpdate(evaluateUpdate, { args: [syncMit] });
      expect(first).toMatchObject({ outcome: 'CAPTUREREQUIRED', status: 'Capturerequired' });
      // A retry of that request after its answer was lost: the same answer, nothing captured.
      expect(await handle.executeUpdate(evaluateUpdate, { args: [syncMit] })).toEqual(first);
      expect(activities.processorCapture).not.toHaveBeenCalled();
      // A further evaluate (another request) acts as the capture, as the interface says.
      const further = { ...syncMit, idempotencyKey: randomUUID() };
      expect(await handle.executeUpdate(evaluateUpdate, { args: [further] })).toMatchObject({ outcome: 'APPROVED' });
      expect(activities.processorCapture).toHaveBeenCalledTimes(1);
    });
  });

  it('a write Postgres refuses fails the command with PersistenceRejected and leaves the order unevaluated, not wedged', async () => {
    let refuse = true;
    const { activities } = fakes({
      persistOrder: jest.fn(async () => {
        if (refuse) throw ApplicationFailure.nonRetryable('persist order: SQLSTATE 22021', FAILURE.persistenceRejected);
      }),
    });
    await withWorker(activities, async (taskQueue) => {
      const handle = await start(taskQueue);
      const first = handle.executeUpdate(evaluateUpdate, { args: [evaluateInput(card, new Date())] });
      await expect(first).rejects.toBeInstanceOf(WorkflowUpdateFailedError);
      expect(failureTypeOf(await first.catch((e) => e))).toBe(FAILURE.persistenceRejected);
      expect(activities.persistOrder).toHaveBeenCalledTimes(1); // never retried
      // Nothing wedged: the next evaluate is decided at once (same charge key: the processor answers as before).
      refuse = false;
      const again = await handle.executeUpdate(evaluateUpdate, { args: [evaluateInput(card, new Date())] });
      expect(again).toMatchObject({ outcome: 'APPROVED', status: 'Completed' });
    });
    const keys = (activities.processorCharge as jest.Mock).mock.calls.map(([c]) => (c as ChargeInput).idempotencyKey);
    expect(new Set(keys).size).toBe(1);
  });

  it('a command while another runs is turned away (OrderBusy) before it enters the history', async () => {
    let releaseCapture: () => void = () => undefined;
    const captureHeld = new Promise<void>((resolve) => {
      releaseCapture = resolve;
    });
    const { activities } = fakes({
      processorCapture: jest.fn(async ({ call }: { call: LedgerCall }) => {
        await captureHeld;
        return { captureId: `cap-${call.key}`, key: call.key };
      }),
    });
    await withWorker(activities, async (taskQueue) => {
      const handle = await start(taskQueue);
      const authorize = evaluateInput(card, new Date(), { transactionType: 'AUTHORIZATION' });
      expect(await handle.executeUpdate(evaluateUpdate, { args: [authorize] })).toMatchObject({
        outcome: 'CAPTUREREQUIRED',
      });
      const first = handle.executeUpdate(captureUpdate, { args: [{ amount: null }] });
      while ((activities.processorCapture as jest.Mock).mock.calls.length === 0)
        await new Promise((r) => setImmediate(r));
      const second = await handle.executeUpdate(captureUpdate, { args: [{ amount: null }] }).catch((e: unknown) => e);
      expect(failureTypeOf(second)).toBe(FAILURE.orderBusy);
      releaseCapture();
      expect(await first).toMatchObject({ kind: 'captured', status: 'Completed' });
      const history = await handle.fetchHistory();
      const accepted = history.events?.filter((e) => e.workflowExecutionUpdateAcceptedEventAttributes) ?? [];
      expect(accepted).toHaveLength(2); // the evaluate and the first capture; the rejected one left no trace
    });
    expect(activities.processorCapture).toHaveBeenCalledTimes(1);
  });

  it('a capture the processor refuses for good: refused, the order still awaits capture; on Sync MIT the rescue ends', async () => {
    const refusal = ApplicationFailure.nonRetryable('Stripe refused the capture', FAILURE.processorRefused, {
      code: 'payment_intent_unexpected_state',
    });
    const { activities, persisted } = fakes({ processorCapture: jest.fn(async () => Promise.reject(refusal)) });
    await withWorker(activities, async (taskQueue) => {
      const cit = await start(taskQueue);
      trackHistory('order', cit.workflowId);
      const at = new Date(await env.currentTimeMs());
      const authorize = evaluateInput(card, at, { transactionType: 'AUTHORIZATION' });
      expect(await cit.executeUpdate(evaluateUpdate, { args: [authorize] })).toMatchObject({
        outcome: 'CAPTUREREQUIRED',
      });
      // Asked once (not retried), answered as a refusal with the order as it was.
      expect(await cit.executeUpdate(captureUpdate, { args: [{ amount: null }] })).toEqual({
        kind: 'refused',
        reason: 'capture_refused',
        status: 'Capturerequired',
      });
      expect(activities.processorCapture).toHaveBeenCalledTimes(1);
      expect(await cit.executeUpdate(cancelUpdate, { args: [{ via: 'cancel' }] })).toMatchObject({
        kind: 'cancelled',
      });
      // The cancel's write records the refused capture with the void.
      const calls = (await cit.query(orderStateQuery))?.attempts.map((a) => [a.kind, a.state, a.result]);
      expect(calls).toEqual([
        ['authorization', 'reversed', 'approved'],
        ['capture', 'answered', 'refused'],
        ['void', 'answered', 'done'],
      ]);
      expect(await cit.result()).toEqual({ status: 'Cancelled' });

      const sync = await start(taskQueue);
      trackHistory('order', sync.workflowId);
      const now = new Date(await env.currentTimeMs());
      const syncMit = evaluateInput(card, now, { flow: 'SYNC_MIT', isMIT: true, isRecurring: true, intervalCount: 1 });
      expect(await sync.executeUpdate(evaluateUpdate, { args: [syncMit] })).toMatchObject({
        outcome: 'CAPTUREREQUIRED',
      });
      const again = { ...syncMit, idempotencyKey: randomUUID() };
      expect(await sync.executeUpdate(evaluateUpdate, { args: [again] })).toMatchObject({
        outcome: 'DECLINED',
        status: 'Cancelled',
      });
      expect(await sync.result()).toEqual({ status: 'Cancelled' });
    });
    expect(activities.processorCapture).toHaveBeenCalledTimes(2);
    expect(activities.processorVoid).toHaveBeenCalledTimes(2);
    expect(
      persisted.map((p) => [p.transition?.from ?? null, p.state.status, p.events.map((e) => outboxEvent(e).name)]),
    ).toEqual([
      [null, 'Capturerequired', ['order.capturerequired']],
      ['Capturerequired', 'Cancelled', ['order.cancelled']],
      [null, 'Capturerequired', ['order.capturerequired']],
      ['Capturerequired', 'Cancelled', ['order.expired']],
    ]);
  });

  it('a void the processor refuses for good (captured at the processor) leaves a Problem, never Cancelled', async () => {
    const refusal = ApplicationFailure.nonRetryable('Stripe refused the void', FAILURE.processorRefused, {
      code: 'payment_intent_unexpected_state',
    });
    const { activities, persisted } = fakes({
      processorVoid: jest.fn(async () => Promise.reject(refusal)),
      processorCapture: jest.fn(async () => Promise.reject(refusal)),
    });
    const authorizing = async (taskQueue: string, overrides: Partial<EvaluateInput> = {}) => {
      const handle = await start(taskQueue);
      trackHistory('order', handle.workflowId);
      const at = new Date(await env.currentTimeMs());
      const input = evaluateInput(card, at, { transactionType: 'AUTHORIZATION', ...overrides });
      expect(await handle.executeUpdate(evaluateUpdate, { args: [input] })).toMatchObject({
        outcome: 'CAPTUREREQUIRED',
      });
      return { handle, input };
    };
    await withWorker(activities, async (taskQueue) => {
      // The merchant's cancel: nothing cancelled, the order an operator's; the refusal on the void's row.
      const { handle: cancelled } = await authorizing(taskQueue);
      expect(await cancelled.executeUpdate(cancelUpdate, { args: [{ via: 'cancel' }] })).toEqual({
        kind: 'refused',
        reason: 'give_back_refused',
        status: 'Problem',
      });
      const calls = (await cancelled.query(orderStateQuery))?.attempts.map((a) => [a.kind, a.state, a.result]);
      expect(calls).toEqual([
        ['authorization', 'answered', 'approved'],
        ['void', 'answered', 'refused'],
      ]);
      expect(await cancelled.result()).toEqual({ status: 'Problem' });

      // The capture deadline's void, refused.
      const { handle: lapsed } = await authorizing(taskQueue);
      expect(await lapsed.result()).toEqual({ status: 'Problem' });

      // A Sync MIT further evaluate: the capture refused, then the void: never DECLINED (the money
      // stands), but "outcome not known" until an operator settles it.
      const mit = { flow: 'SYNC_MIT', isMIT: true, isRecurring: true, intervalCount: 1 } as const;
      const { handle: sync, input } = await authorizing(taskQueue, mit);
      const again = await sync
        .executeUpdate(evaluateUpdate, { args: [{ ...input, idempotencyKey: randomUUID() }] })
        .catch((e: unknown) => e);
      expect(failureTypeOf(again)).toBe(FAILURE.chargeOutcomeUnknown);
      expect(await sync.result()).toEqual({ status: 'Problem' });
    });
    // Each void asked once: a refusal for good is not retried.
    expect(activities.processorVoid).toHaveBeenCalledTimes(3);
    expect(
      persisted.map((p) => [p.transition?.from ?? null, p.state.status, p.state.chargeOutcomeUnknown ?? false]),
    ).toEqual([
      [null, 'Capturerequired', false],
      ['Capturerequired', 'Problem', true],
      [null, 'Capturerequired', false],
      ['Capturerequired', 'Problem', true],
      [null, 'Capturerequired', false],
      ['Capturerequired', 'Problem', true],
    ]);
    expect(persisted.flatMap((p) => p.events.map((e) => outboxEvent(e).name))).toEqual(
      Array(3).fill('order.capturerequired'),
    );
  });

  it("an evaluate still running when the first evaluate's hour ends decides the order, and the order goes on", async () => {
    // The charge is held until the hour's timer has fired, so the evaluate straddles the hour's end.
    let chargeStarted: () => void = () => undefined;
    const started = new Promise<void>((resolve) => {
      chargeStarted = resolve;
    });
    let releaseCharge: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      releaseCharge = resolve;
    });
    const { activities } = fakes({
      processorCharge: jest.fn(async (input: ChargeInput): Promise<ChargeResult> => {
        chargeStarted();
        await released;
        return { result: 'approved', authorizationId: `auth-${input.idempotencyKey}` };
      }),
    });
    await withWorker(activities, async (taskQueue) => {
      const handle = await start(taskQueue);
      trackHistory('order', handle.workflowId);
      await env.sleep(60 * 60_000 - 5_000);
      const authorize = evaluateInput(card, new Date(await env.currentTimeMs()), { transactionType: 'AUTHORIZATION' });
      const answer = handle.executeUpdate(evaluateUpdate, { args: [authorize] });
      await started;
      await eventually(
        async () => (await handle.fetchHistory()).events?.some((e) => e.timerFiredEventAttributes) ?? false,
        (fired) => fired,
        { describe: "the first evaluate's hour to end", timeoutMs: 30_000 },
      );
      releaseCharge();
      expect(await answer).toMatchObject({ outcome: 'CAPTUREREQUIRED', status: 'Capturerequired' });
      // The run did not close under the order: its capture is taken.
      const captured = await handle.executeUpdate(captureUpdate, { args: [{ amount: null }] });
      expect(captured).toMatchObject({ kind: 'captured', status: 'Completed' });
      expect(await handle.result()).toEqual({ status: 'Completed' });
    });
  });

  it('async MIT: a processor that keeps failing on a retry is retried with the same key, then the rescue goes on', async () => {
    let failures = 2;
    const { activities } = fakes({
      processorCharge: jest.fn(async (input: ChargeInput): Promise<ChargeResult> => {
        if (failures-- > 0) throw new Error('processor connection reset');
        return { result: 'approved', authorizationId: `auth-${input.idempotencyKey}` };
      }),
    });
    await withWorker(activities, async (taskQueue) => rescuedAsyncMit(await start(taskQueue)));
    const keys = (activities.processorCharge as jest.Mock).mock.calls.map(([c]) => (c as ChargeInput).idempotencyKey);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1); // one attempt, one key, however many tries
  });
  it("async MIT: each upsert sends only the attributes that changed; a retry's soft decline upserts none", async () => {
    let declines = 2;
    const { activities, persisted } = fakes({
      processorCharge: jest.fn(
        async (input: ChargeInput): Promise<ChargeResult> =>
          declines-- > 0
            ? { result: 'soft_decline', code: '51' }
            : { result: 'approved', authorizationId: `auth-${input.idempotencyKey}` },
      ),
    });
    const { history, attributes } = await withWorker(activities, async (taskQueue) => {
      const handle = await start(taskQueue, undefined, false, 'ASYNC_MIT');
      trackHistory('order', handle.workflowId);
      await rescuedAsyncMit(handle);
      return { history: await handle.fetchHistory(), attributes: (await handle.describe()).searchAttributes };
    });
    // Four writes: accepted (Processing), two soft declines, rescued (Completed).
    expect(persisted.map((p) => [p.state.status, p.state.serviceAttempts])).toEqual([
      ['Processing', 0],
      ['Processing', 1],
      ['Processing', 2],
      ['Completed', 3],
    ]);
    // The order's own attributes (Fc…), upserted by commits; the SDK upserts TemporalChangeVersion
    // for patches apart from these.
    const statuses = (history.events ?? []).flatMap((e) => {
      const fields = e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields ?? {};
      const status = fields[SEARCH_ATTRIBUTES.orderStatus.name]?.data;
      return status ? [JSON.parse(Buffer.from(status).toString())] : [];
    });
    expect(statuses).toEqual(['Processing', 'Completed']);
    // Each upsert carries only what changed since the run's start or its last upsert...
    const upserted = (history.events ?? []).flatMap((e) => {
      const fields = e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields ?? {};
      const names = Object.keys(fields).filter((name) => name.startsWith('Fc'));
      return names.length > 0 ? [names.sort()] : [];
    });
    expect(upserted).toEqual([
      [SEARCH_ATTRIBUTES.orderStatus.name],
      [SEARCH_ATTRIBUTES.confirmationId.name, SEARCH_ATTRIBUTES.lifecycle.name, SEARCH_ATTRIBUTES.orderStatus.name],
    ]);
    // ...and the server merges it into the rest: operators find the order by every attribute.
    expect(attributes).toMatchObject({
      [SEARCH_ATTRIBUTES.merchantId.name]: [expect.any(String)],
      [SEARCH_ATTRIBUTES.orderId.name]: [expect.any(String)],
      [SEARCH_ATTRIBUTES.flow.name]: ['ASYNC_MIT'],
      [SEARCH_ATTRIBUTES.lifecycle.name]: ['settled'],
      [SEARCH_ATTRIBUTES.orderStatus.name]: ['Completed'],
      [SEARCH_ATTRIBUTES.confirmationId.name]: [expect.any(String)],
    });
  });

  describe('unanswered charges', () => {
    const declinedByScore = { decision: 'decline' as const, score: 5, reasons: ['velocity'], deviceSignalsUsed: false };
    /** The processor answers nothing to the first `unanswered` tries (the three a waiting caller allows), then `answer`. */
    const unansweredThen = (unanswered: number, answer: (input: ChargeInput) => ChargeResult) => {
      let left = unanswered;
      return jest.fn(async (input: ChargeInput): Promise<ChargeResult> => {
        if (left-- > 0) throw new Error('processor read timeout');
        return answer(input);
      });
    };
    const approved = (input: ChargeInput): ChargeResult => ({
      result: 'approved',
      authorizationId: `auth-${input.idempotencyKey}`,
    });
    const chargeKeys = (activities: object) =>
      ((activities as ProcessorActivities).processorCharge as jest.Mock).mock.calls.map(
        ([c]) => (c as ChargeInput).idempotencyKey,
      );
    const chargeAttempts = (activities: object) =>
      ((activities as ProcessorActivities).processorCharge as jest.Mock).mock.calls.map(
        ([c]) => (c as ChargeInput).attempt,
      );
    /** Which sends were settling ones (ChargeInput.settling: "unavailable" then is no answer). */
    const settlingSends = (activities: object) =>
      ((activities as ProcessorActivities).processorCharge as jest.Mock).mock.calls.map(
        ([c]) => (c as ChargeInput).settling === true,
      );
    /** A first evaluate whose charge the processor leaves unanswered: its caller is told 500010. */
    const evaluateUnanswered = async (handle: Awaited<ReturnType<typeof start>>, input: EvaluateInput) => {
      const first = await handle.executeUpdate(evaluateUpdate, { args: [input] }).catch((e: unknown) => e);
      expect(failureTypeOf(first)).toBe(FAILURE.chargeOutcomeUnknown);
    };
    const started = async (taskQueue: string, resume?: OrderResume, chargeRecordsDecision = false) => {
      const handle = await start(taskQueue, resume, chargeRecordsDecision);
      trackHistory('order', handle.workflowId);
      return handle;
    };

    it('a retried first evaluate sends that charge again under its key and answers from it, whatever its own score', async () => {
      const { activities, persisted } = fakes({ processorCharge: unansweredThen(3, approved) });
      await withWorker(activities, async (taskQueue) => {
        const handle = await started(taskQueue);
        await evaluateUnanswered(handle, evaluateInput(card, new Date()));
        // The retry would be declined if decided afresh; the first charge may stand, so it is asked again.
        const retry = evaluateInput(card, new Date(), { scored: declinedByScore });
        expect(await handle.executeUpdate(evaluateUpdate, { args: [retry] })).toMatchObject({
          outcome: 'APPROVED',
          status: 'Completed',
        });
        expect(await handle.result()).toEqual({ status: 'Completed' });
      });
      const keys = chargeKeys(activities);
      expect(keys).toHaveLength(4);
      expect(new Set(keys).size).toBe(1);
      expect(chargeAttempts(activities)).toEqual([1, 1, 1, 1]);
      expect(persisted.map((p) => [p.state.status, p.state.serviceAttempts])).toEqual([['Completed', 1]]);
    });

    it.each(['SALE', 'AUTHORIZATION'] as const)(
      'a %s first charge nobody retries is asked again when the hour ends and undone (refund, void); no order',
      async (transactionType) => {
        const { activities, persisted } = fakes({ processorCharge: unansweredThen(3, approved) });
        await withWorker(activities, async (taskQueue) => {
          const handle = await started(taskQueue);
          await evaluateUnanswered(handle, evaluateInput(card, new Date(), { transactionType }));
          // Its ledger rows say the charge was given back: a later evaluate starts the id afresh.
          expect(await handle.result()).toEqual({ status: 'Draft' });
        });
        const keys = chargeKeys(activities);
        expect(keys).toHaveLength(4);
        expect(new Set(keys).size).toBe(1);
        const key = keys[0] as string;
        const authorizationId = `auth-${key}`;
        if (transactionType === 'SALE') {
          expect(activities.processorReverse).toHaveBeenCalledTimes(1);
          expect(activities.processorReverse).toHaveBeenCalledWith({
            call: expect.objectContaining({ kind: 'reversal', attempt: 1, amount: 1999 }),
            authorizationId,
          });
          expect(activities.processorVoid).not.toHaveBeenCalled();
        } else {
          expect(activities.processorVoid).toHaveBeenCalledTimes(1);
          expect(activities.processorVoid).toHaveBeenCalledWith({
            call: expect.objectContaining({ kind: 'void', attempt: 1 }),
            authorizationId,
          });
          expect(activities.processorReverse).not.toHaveBeenCalled();
        }
        expect(persisted).toEqual([]);
      },
    );

    /** What the charge activity answers when it recorded the order its answer decides (ChargeInput.decides). */
    const recordedWithOrder = (input: ChargeInput): ChargeResult => {
      const result = approved(input);
      const plan = input.decides;
      if (!plan) throw new Error('the first charge was sent with no decision to record');
      const now = new Date();
      const ctx = { now, captureWindowMinutes: 5, challengeFrom: now, confirmationId: () => `conf-${input.orderId}` };
      const { changes } = evaluateChargeDecision(plan.draft, result, ctx);
      return { ...result, decided: { changes, atUtc: now.toISOString() } };
    };
    const decideModes = (activities: object) =>
      ((activities as ProcessorActivities).processorCharge as jest.Mock).mock.calls.map(
        ([c]) => (c as ChargeInput).decides?.mode,
      );

    it('a first charge that records its order with the answer: the workflow adopts it, and writes none itself', async () => {
      const { activities, persisted } = fakes({
        processorCharge: jest.fn(async (i: ChargeInput) => recordedWithOrder(i)),
      });
      await withWorker(activities, async (taskQueue) => {
        const handle = await started(taskQueue, undefined, true);
        const answer = await handle.executeUpdate(evaluateUpdate, { args: [evaluateInput(card, new Date())] });
        expect(answer).toMatchObject({ kind: 'answer', outcome: 'APPROVED', status: 'Completed' });
        expect(await handle.query(orderStateQuery)).toMatchObject({
          status: 'Completed',
          version: 1,
          serviceAttempts: 1,
          confirmationId: expect.stringMatching(/^conf-/),
          attempts: [expect.objectContaining({ kind: 'sale', attempt: 1, state: 'answered', result: 'approved' })],
        });
        expect(await handle.result()).toEqual({ status: 'Completed' });
      });
      expect(decideModes(activities)).toEqual(['decide']);
      expect(persisted).toEqual([]);
    });

    it('a cancel while the first charge is unanswered is told the outcome is not known (retry), not "no such order"', async () => {
      const { activities } = fakes({ processorCharge: unansweredThen(3, approved) });
      await withWorker(activities, async (taskQueue) => {
        const handle = await started(taskQueue);
        await evaluateUnanswered(handle, evaluateInput(card, new Date()));
        const cancelled = await handle
          .executeUpdate(cancelUpdate, { args: [{ via: 'external-cancel' }] })
          .catch((e: unknown) => e);
        expect(failureTypeOf(cancelled)).toBe(FAILURE.chargeOutcomeUnknown);
        // Nothing sent: a rejected Update; the hour's end settles the charge (given back).
        expect(await handle.result()).toEqual({ status: 'Draft' });
      });
      expect(activities.processorReverse).toHaveBeenCalledTimes(1);
    });

    it('a first charge whose order was recorded with its answer, its caller never hearing, is that order when the hour ends: nothing undone', async () => {
      // The three sends the caller waits on fail after the answer and its order were recorded (a
      // lost completion); the hour's end asks again, and the ledger's row says the order was decided.
      const processorCharge = unansweredThen(3, recordedWithOrder);
      const { activities, persisted } = fakes({ processorCharge });
      await withWorker(activities, async (taskQueue) => {
        const handle = await started(taskQueue, undefined, true);
        await evaluateUnanswered(handle, evaluateInput(card, new Date()));
        expect(await handle.result()).toEqual({ status: 'Completed' });
      });
      expect(decideModes(activities)).toEqual(['decide', 'decide', 'decide', 'adopt']);
      expect(new Set(chargeKeys(activities)).size).toBe(1);
      expect(activities.processorReverse).not.toHaveBeenCalled();
      expect(activities.processorVoid).not.toHaveBeenCalled();
      expect(persisted).toEqual([]);
    });

    it.each([
      ['declines it', 3, () => ({ result: 'soft_decline', code: '51' }) as ChargeResult, 4],
      ['answers unavailable', 3, () => ({ result: 'unavailable' }) as ChargeResult, 4],
      ['never answers', 1_000, approved, 15],
    ] as const)(
      'a first charge the processor %s when asked again as the hour ends: nothing undone (the ledger keeps what it said)',
      async (_case, unanswered, answer, tries) => {
        const { activities } = fakes({ processorCharge: unansweredThen(unanswered, answer) });
        await withWorker(activities, async (taskQueue) => {
          const handle = await started(taskQueue);
          await handle
            .executeUpdate(evaluateUpdate, { args: [evaluateInput(card, new Date())] })
            .catch(() => undefined);
          expect(await handle.result()).toEqual({ status: 'Draft' });
        });
        expect(chargeKeys(activities)).toHaveLength(tries);
        expect(new Set(chargeKeys(activities)).size).toBe(1);
        // The caller's three sends record any answer; the hour's end only asks (settling).
        expect(settlingSends(activities)).toEqual([false, false, false, ...Array(tries - 3).fill(true)]);
        expect(activities.processorReverse).not.toHaveBeenCalled();
        expect(activities.processorVoid).not.toHaveBeenCalled();
      },
    );

    it("a new attempt's charge nobody retried is settled as the hour ends: an approval given back", async () => {
      const { activities } = fakes({ processorCharge: unansweredThen(3, approved) });
      const resume: OrderResume = {
        status: 'Declined',
        version: 2,
        serviceAttempts: 1,
        createdAtUtc: new Date().toISOString(),
      };
      await withWorker(activities, async (taskQueue) => {
        const handle = await started(taskQueue, resume);
        await evaluateUnanswered(handle, evaluateInput(card, new Date(), { attemptCount: 2 }));
        // The order stays Declined: charge 2, sent again under its key with its own request, is
        // given back; the merchant's next attempt is numbered after it (src/orders/new-attempt.ts).
        expect(await handle.result()).toEqual({ status: 'Draft' });
      });
      expect(chargeAttempts(activities)).toEqual([2, 2, 2, 2]);
      expect(new Set(chargeKeys(activities)).size).toBe(1);
      expect(activities.processorReverse).toHaveBeenCalledTimes(1);
      expect(activities.processorVoid).not.toHaveBeenCalled();
    });

    it('a charge after a passed challenge answered "unavailable" leaves the order a Problem, not Declined', async () => {
      let calls = 0;
      const { activities, persisted } = fakes({
        processorCharge: jest.fn(async (): Promise<ChargeResult> => {
          calls += 1;
          return calls === 1 ? { result: 'challenge_required' } : { result: 'unavailable' };
        }),
      });
      await withWorker(activities, async (taskQueue) => {
        const handle = await started(taskQueue);
        await handle.executeUpdate(evaluateUpdate, { args: [evaluateInput(card, new Date())] });
        expect(await handle.executeUpdate(challengeUpdate, { args: [{ result: 'passed' }] })).toMatchObject({
          status: 'Problem',
        });
        expect(await handle.result()).toEqual({ status: 'Problem' });
      });
      // The processor answered (it refused): nothing was charged, so the outcome is known.
      expect(persisted.at(-1)?.state.status).toBe('Problem');
      expect(persisted.at(-1)?.state.chargeOutcomeUnknown).toBeUndefined();
    });

    it('a Sync MIT evaluate that resumed the charge under another key answers both keys as the first, never captures', async () => {
      const { activities } = fakes({ processorCharge: unansweredThen(3, approved) });
      await withWorker(activities, async (taskQueue) => {
        const handle = await started(taskQueue);
        const now = new Date(await env.currentTimeMs());
        const syncMit = (idempotencyKey: string) =>
          evaluateInput(card, now, {
            flow: 'SYNC_MIT',
            isMIT: true,
            isRecurring: true,
            intervalCount: 1,
            idempotencyKey,
          });
        const [k1, k2] = [randomUUID(), randomUUID()];
        await evaluateUnanswered(handle, syncMit(k1));
        const resumed = await handle.executeUpdate(evaluateUpdate, { args: [syncMit(k2)] });
        expect(resumed).toMatchObject({ outcome: 'CAPTUREREQUIRED', status: 'Capturerequired' });
        // Either key again (an answer lost on the way back) is the first evaluate, not a capture.
        expect(await handle.executeUpdate(evaluateUpdate, { args: [syncMit(k2)] })).toEqual(resumed);
        expect(await handle.executeUpdate(evaluateUpdate, { args: [syncMit(k1)] })).toEqual(resumed);
        expect(activities.processorCapture).not.toHaveBeenCalled();
        // Closed here: a run left waiting on a timer with no worker stalls the test server's time skipping.
        await handle.terminate('test over');
      });
    });

    it('a passed challenge whose approval could not be written is sent again under its key at the timeout', async () => {
      let calls = 0;
      let refuse = true;
      const { activities, persisted } = fakes({
        processorCharge: jest.fn(async (input: ChargeInput): Promise<ChargeResult> => {
          calls += 1;
          return calls === 1 ? { result: 'challenge_required' } : approved(input);
        }),
        persistOrder: jest.fn(async (input: PersistOrderInput) => {
          if (refuse && input.state.status === 'Completed')
            throw ApplicationFailure.nonRetryable('persist order: SQLSTATE 22021', FAILURE.persistenceRejected);
          persisted.push(input);
        }),
      });
      await withWorker(activities, async (taskQueue) => {
        const handle = await started(taskQueue);
        await handle.executeUpdate(evaluateUpdate, { args: [evaluateInput(card, new Date())] });
        const passed = await handle
          .executeUpdate(challengeUpdate, { args: [{ result: 'passed' }] })
          .catch((e: unknown) => e);
        expect(failureTypeOf(passed)).toBe(FAILURE.persistenceRejected);
        refuse = false;
        expect(await handle.result()).toEqual({ status: 'Completed' });
      });
      // The approval was lost with its write: the same key again (the processor's first answer), never attempt 3.
      expect(chargeAttempts(activities)).toEqual([1, 2, 2]);
      expect(new Set(chargeKeys(activities).slice(1)).size).toBe(1);
      expect(persisted.at(-1)?.state).toMatchObject({ status: 'Completed', serviceAttempts: 2 });
    });

    it('a passed challenge whose charge the processor never answers becomes a Problem at the timeout, not Cancelled', async () => {
      let calls = 0;
      const { activities, persisted } = fakes({
        processorCharge: jest.fn(async (): Promise<ChargeResult> => {
          calls += 1;
          if (calls === 1) return { result: 'challenge_required' };
          throw new Error('processor read timeout');
        }),
      });
      await withWorker(activities, async (taskQueue) => {
        const handle = await started(taskQueue);
        await handle.executeUpdate(evaluateUpdate, { args: [evaluateInput(card, new Date())] });
        await handle.executeUpdate(challengeUpdate, { args: [{ result: 'passed' }] }).catch(() => undefined);
        expect(await handle.result()).toEqual({ status: 'Problem' });
      });
      expect(chargeKeys(activities)).toHaveLength(1 + 3 + 12);
      expect(persisted.map((p) => p.state.status)).toEqual(['Onhold', 'Onhold', 'Problem']);
      expect(persisted.at(-1)?.state.chargeOutcomeUnknown).toBe(true); // never answered: it may stand
    });

    it('a passed challenge whose charge went unanswered is charged again at the timeout, not cancelled', async () => {
      let calls = 0;
      const { activities, persisted } = fakes({
        processorCharge: jest.fn(async (input: ChargeInput): Promise<ChargeResult> => {
          calls += 1;
          if (calls === 1) return { result: 'challenge_required' };
          if (calls <= 4) throw new Error('processor read timeout');
          return approved(input);
        }),
      });
      await withWorker(activities, async (taskQueue) => {
        const handle = await started(taskQueue);
        expect(await handle.executeUpdate(evaluateUpdate, { args: [evaluateInput(card, new Date())] })).toMatchObject({
          outcome: 'CHALLENGE',
        });
        const passed = await handle
          .executeUpdate(challengeUpdate, { args: [{ result: 'passed' }] })
          .catch((e: unknown) => e);
        expect(failureTypeOf(passed)).toBe(FAILURE.chargeOutcomeUnknown);
        expect(await handle.result()).toEqual({ status: 'Completed' });
      });
      expect(chargeAttempts(activities)).toEqual([1, 2, 2, 2, 2]);
      expect(new Set(chargeKeys(activities).slice(1)).size).toBe(1);
      expect(persisted.map((p) => [p.state.status, p.events.map((e) => outboxEvent(e).name)])).toEqual([
        ['Onhold', ['challenge.presented']],
        ['Onhold', ['challenge.passed']],
        ['Completed', ['order.completed']],
      ]);
    });

    describe('on an async MIT retry', () => {
      /** An async MIT evaluate; `windowHours`: the rescue window (else the merchant's default, 7 days). */
      const asyncMit = async (windowHours?: number) => {
        const now = await env.currentTimeMs();
        return evaluateInput(card, new Date(now), {
          flow: 'ASYNC_MIT',
          isMIT: true,
          isRecurring: true,
          intervalCount: 1,
          ...(windowHours ? { expiryDateUtc: new Date(now + windowHours * 3_600_000).toISOString() } : {}),
        });
      };
      const softDecline: ChargeResult = { result: 'soft_decline', code: '51' };
      /**
       * Declines every attempt but `unanswered`, which goes unanswered `tries` times (or until
       * `answering.now` is set), then is approved.
       */
      const processorFor = (unanswered: number, tries: number, answering = { now: false }) => {
        let left = tries;
        return jest.fn(async (input: ChargeInput): Promise<ChargeResult> => {
          if (input.attempt !== unanswered) return softDecline;
          if (left-- > 0 && !answering.now) throw new Error('processor read timeout');
          return approved(input);
        });
      };
      const hoursToLastWrite = (persisted: PersistOrderInput[]) => {
        const last = persisted.at(-1)?.state;
        return last ? (Date.parse(last.updatedAtUtc) - Date.parse(last.createdAtUtc)) / 3_600_000 : Number.NaN;
      };

      it('a charge the processor never answers is let go after its bound and sent again under its key at the next retry', async () => {
        const { activities, persisted } = fakes({ processorCharge: processorFor(2, 12) });
        await withWorker(activities, async (taskQueue) => {
          const handle = await started(taskQueue);
          expect(await handle.executeUpdate(evaluateUpdate, { args: [await asyncMit()] })).toMatchObject({
            outcome: 'SUBMITTED',
          });
          expect(await handle.result()).toEqual({ status: 'Completed' });
        });
        // Retry 2 (+1 h) is tried 12 times and let go; retry 3 (+6 h) sends attempt 2 again, never attempt 3.
        expect(chargeAttempts(activities)).toEqual([1, ...Array(13).fill(2)]);
        expect(persisted.map((p) => [p.state.status, p.state.serviceAttempts])).toEqual([
          ['Processing', 0],
          ['Processing', 1],
          ['Completed', 2],
        ]);
        expect(hoursToLastWrite(persisted)).toBeGreaterThanOrEqual(6); // by retry 3, not by the 13th try of retry 2
      });

      it('a re-send answered "unavailable" (say, our credentials refused) leaves the charge unsettled, never a new attempt', async () => {
        let tries = 0;
        const processorCharge = jest.fn(async (input: ChargeInput): Promise<ChargeResult> => {
          if (input.attempt !== 2) return softDecline;
          tries += 1;
          if (tries <= 12) throw new Error('processor read timeout'); // retry 2, let go
          // Retry 3 sends it again: refused before the processor's key lookup, which says nothing
          // of the first send. Retry 4 sends it again, and the key answers the first's approval.
          return tries === 13 ? { result: 'unavailable' } : approved(input);
        });
        const { activities, persisted } = fakes({ processorCharge });
        await withWorker(activities, async (taskQueue) => {
          const handle = await started(taskQueue);
          await handle.executeUpdate(evaluateUpdate, { args: [await asyncMit()] });
          expect(await handle.result()).toEqual({ status: 'Completed' });
        });
        expect(chargeAttempts(activities)).toEqual([1, ...Array(14).fill(2)]);
        expect(new Set(chargeKeys(activities).slice(1)).size).toBe(1);
        expect(processorCharge.mock.calls.slice(13).map(([input]) => input.settling)).toEqual([true, true]);
        expect(persisted.map((p) => [p.state.status, p.state.serviceAttempts])).toEqual([
          ['Processing', 0],
          ['Processing', 1],
          ['Completed', 2],
        ]);
      });

      /** An async MIT order whose retry 2 went unanswered and was let go, 3 hours in; then `act`. */
      const withUnansweredRetry = async (
        act: (handle: Awaited<ReturnType<typeof start>>, answering: { now: boolean }) => Promise<void>,
        overrides: Partial<EvaluateInput> = {},
        activityOverrides: Partial<OrderActivities & ProcessorActivities> = {},
      ) => {
        const answering = { now: false };
        const fx = fakes({
          processorCharge: processorFor(2, Number.POSITIVE_INFINITY, answering),
          ...activityOverrides,
        });
        await withWorker(fx.activities, async (taskQueue) => {
          const handle = await started(taskQueue);
          await handle.executeUpdate(evaluateUpdate, { args: [{ ...(await asyncMit()), ...overrides }] });
          // Retry 2 fires at 1 hour and is let go about 25 minutes later; retry 3 is at 6 hours.
          await env.sleep('3 hours');
          expect(chargeAttempts(fx.activities)).toEqual([1, ...Array(12).fill(2)]);
          await act(handle, answering);
        });
        return fx;
      };

      it('a cancel while the charge is unanswered sends it again first and undoes an approval, then cancels', async () => {
        const { activities, persisted } = await withUnansweredRetry(async (handle, answering) => {
          answering.now = true;
          const cancelled = await handle.executeUpdate(cancelUpdate, { args: [{ via: 'cancel' }] });
          expect(cancelled).toEqual({ kind: 'cancelled', status: 'Cancelled' });
          expect(await handle.result()).toEqual({ status: 'Cancelled' });
        });
        const [key] = chargeKeys(activities).slice(-1);
        // The sale the re-send found approved is refunded in full (a technical cancel), by its key.
        expect(activities.processorReverse).toHaveBeenCalledWith({
          call: expect.objectContaining({ kind: 'reversal', attempt: 2, amount: persisted[0]?.state.amount }),
          authorizationId: `auth-${key}`,
        });
        expect(
          persisted.map((p) => [p.state.status, p.state.serviceAttempts, p.events.map((e) => outboxEvent(e).name)]),
        ).toEqual([
          ['Processing', 0, []],
          ['Processing', 1, []],
          ['Cancelled', 2, ['order.cancelled']],
        ]);
      });

      it('a cancel on an authorization whose charge is unanswered voids what the re-send approved, then cancels', async () => {
        const { activities, persisted } = await withUnansweredRetry(
          async (handle, answering) => {
            answering.now = true;
            const cancelled = await handle.executeUpdate(cancelUpdate, { args: [{ via: 'external-cancel' }] });
            expect(cancelled).toEqual({ kind: 'cancelled', status: 'Cancelled' });
          },
          { transactionType: 'AUTHORIZATION' },
        );
        const [key] = chargeKeys(activities).slice(-1);
        expect(activities.processorVoid).toHaveBeenCalledWith({
          call: expect.objectContaining({ kind: 'void', attempt: 2 }),
          authorizationId: `auth-${key}`,
        });
        expect(activities.processorReverse).not.toHaveBeenCalled();
        expect(persisted.at(-1)?.state).toMatchObject({
          status: 'Cancelled',
          serviceAttempts: 2,
          authorizationId: null,
        });
      });

      it("a cancel whose write Postgres refuses after undoing the charge: the key's replayed approval is no rescue", async () => {
        const written: PersistOrderInput[] = [];
        const { activities } = await withUnansweredRetry(
          async (handle, answering) => {
            answering.now = true;
            const refused = await handle
              .executeUpdate(cancelUpdate, { args: [{ via: 'cancel' }] })
              .catch((e: unknown) => e);
            expect(failureTypeOf(refused)).toBe(FAILURE.persistenceRejected);
            // Retry 3 (+6 h) sends attempt 2 again; its key replays the approval the cancel refunded.
            expect(await handle.result()).toEqual({ status: 'Problem' });
          },
          {},
          {
            persistOrder: jest.fn(async (input: PersistOrderInput) => {
              if (input.state.status === 'Cancelled')
                throw ApplicationFailure.nonRetryable('persist order: SQLSTATE 23514', FAILURE.persistenceRejected);
              written.push(input);
            }),
          },
        );
        const [key] = chargeKeys(activities).slice(-1);
        expect(activities.processorReverse).toHaveBeenCalledWith(
          expect.objectContaining({
            authorizationId: `auth-${key}`,
            call: expect.objectContaining({ kind: 'reversal' }),
          }),
        );
        // Never Completed over a refunded charge: left to an operator, and nothing outstanding.
        expect(written.map((p) => [p.state.status, p.state.serviceAttempts])).toEqual([
          ['Processing', 0],
          ['Processing', 1],
          ['Problem', 2],
        ]);
        expect(written.at(-1)?.state.chargeOutcomeUnknown).toBeUndefined();
      });

      it('refund refused for good at a cancel, of the approval a re-send found: a Problem, the money stands', async () => {
        const refusal = ApplicationFailure.nonRetryable('Stripe refused the refund', FAILURE.processorRefused, {
          code: 'charge_disputed',
        });
        const { activities, persisted } = await withUnansweredRetry(
          async (handle, answering) => {
            answering.now = true;
            expect(await handle.executeUpdate(cancelUpdate, { args: [{ via: 'cancel' }] })).toEqual({
              kind: 'refused',
              reason: 'give_back_refused',
              status: 'Problem',
            });
            expect(await handle.result()).toEqual({ status: 'Problem' });
          },
          {},
          { processorReverse: jest.fn(async () => Promise.reject(refusal)) },
        );
        expect(activities.processorReverse).toHaveBeenCalledTimes(1);
        const last = persisted.at(-1)?.state;
        expect(last?.attempts.map((a) => [a.kind, a.attempt, a.state, a.result])).toEqual([
          ['sale', 1, 'answered', 'declined'],
          ['sale', 2, 'answered', 'approved'],
          ['reversal', 2, 'answered', 'refused'],
        ]);
        expect(
          persisted.map((p) => [p.state.status, p.state.serviceAttempts, p.state.chargeOutcomeUnknown ?? false]),
        ).toEqual([
          ['Processing', 0, false],
          ['Processing', 1, false],
          ['Problem', 2, true],
        ]);
      });

      it('a cancel while the charge is unanswered and the processor still does not answer changes nothing: try again', async () => {
        const { activities, persisted } = await withUnansweredRetry(async (handle, answering) => {
          const refused = await handle
            .executeUpdate(cancelUpdate, { args: [{ via: 'cancel' }] })
            .catch((e: unknown) => e);
          expect(failureTypeOf(refused)).toBe(FAILURE.chargeOutcomeUnknown);
          answering.now = true;
          // Retry 3 (+6 h) sends the same charge again and is answered.
          expect(await handle.result()).toEqual({ status: 'Completed' });
        });
        expect(chargeAttempts(activities)).toEqual([1, ...Array(16).fill(2)]);
        expect(persisted.map((p) => p.state.status)).toEqual(['Processing', 'Processing', 'Completed']);
      });

      it("a retry unanswered until its key's trust ends is sent once more then, and still unanswered leaves a Problem", async () => {
        // Retry 4 (+1 day) goes unanswered; retry 5 is a day later, past the 20 hours its key is trusted.
        const { activities, persisted } = fakes({ processorCharge: processorFor(4, Number.POSITIVE_INFINITY) });
        await withWorker(activities, async (taskQueue) => {
          const handle = await started(taskQueue);
          await handle.executeUpdate(evaluateUpdate, { args: [await asyncMit()] });
          expect(await handle.result()).toEqual({ status: 'Problem' });
        });
        expect(chargeAttempts(activities)).toEqual([1, 2, 3, ...Array(24).fill(4)]);
        expect(persisted.at(-1)?.state).toMatchObject({
          status: 'Problem',
          serviceAttempts: 3,
          chargeOutcomeUnknown: true,
        });
        expect(persisted.at(-1)?.events).toEqual([]);
        // Sent again 20 hours after it was first sent (+1 day), never at +2 days under a key the processor forgot.
        expect(hoursToLastWrite(persisted)).toBeGreaterThanOrEqual(44);
        expect(hoursToLastWrite(persisted)).toBeLessThan(45);
      });

      it('a retry answered when sent again before its key is forgotten rescues the order, inside the window', async () => {
        const { activities, persisted } = fakes({ processorCharge: processorFor(4, 12) });
        await withWorker(activities, async (taskQueue) => {
          const handle = await started(taskQueue);
          await handle.executeUpdate(evaluateUpdate, { args: [await asyncMit()] });
          expect(await handle.result()).toEqual({ status: 'Completed' });
        });
        expect(chargeAttempts(activities)).toEqual([1, 2, 3, ...Array(13).fill(4)]);
        expect(persisted.at(-1)?.state).toMatchObject({ status: 'Completed', serviceAttempts: 4 });
        expect(hoursToLastWrite(persisted)).toBeGreaterThanOrEqual(44);
      });

      // A 7-hour window: retries at 1 minute, 1 hour and 6 hours; the last (attempt 3) is unanswered.
      it("the last retry answered only at the window's end: its approval is undone and the rescue expires", async () => {
        const { activities, persisted } = fakes({ processorCharge: processorFor(3, 12) });
        await withWorker(activities, async (taskQueue) => {
          const handle = await started(taskQueue);
          await handle.executeUpdate(evaluateUpdate, { args: [await asyncMit(7)] });
          expect(await handle.result()).toEqual({ status: 'Cancelled' });
        });
        const [key] = chargeKeys(activities).slice(-1);
        expect(chargeAttempts(activities)).toEqual([1, 2, ...Array(13).fill(3)]);
        expect(activities.processorReverse).toHaveBeenCalledWith(
          expect.objectContaining({
            authorizationId: `auth-${key}`,
            call: expect.objectContaining({ kind: 'reversal' }),
          }),
        );
        const final = persisted.at(-1);
        expect(final?.state).toMatchObject({ status: 'Cancelled', serviceAttempts: 3 });
        expect(final?.state.expiredAtUtc).toBe(final?.state.windowEndsAtUtc);
        expect(final?.events.map((e) => outboxEvent(e).name)).toEqual(['order.expired']);
      });

      it("window's end finding the last retry approved, its refund refused for good: a Problem, never expired", async () => {
        const refusal = ApplicationFailure.nonRetryable('Stripe refused the refund', FAILURE.processorRefused, {
          code: 'charge_disputed',
        });
        const { activities, persisted } = fakes({
          processorCharge: processorFor(3, 12),
          processorReverse: jest.fn(async () => Promise.reject(refusal)),
        });
        await withWorker(activities, async (taskQueue) => {
          const handle = await started(taskQueue);
          await handle.executeUpdate(evaluateUpdate, { args: [await asyncMit(7)] });
          expect(await handle.result()).toEqual({ status: 'Problem' });
        });
        expect(activities.processorReverse).toHaveBeenCalledTimes(1);
        const final = persisted.at(-1);
        expect(final?.state).toMatchObject({ status: 'Problem', serviceAttempts: 3, chargeOutcomeUnknown: true });
        expect(final?.events).toEqual([]);
      });

      it('a decline reported after its rescue window closed is DECLINED at once, never accepted', async () => {
        const { activities, persisted } = fakes({ processorCharge: jest.fn(async () => softDecline) });
        await withWorker(activities, async (taskQueue) => {
          const handle = await started(taskQueue);
          // Declined 8 days ago, no expiryDateUtc: the merchant's default window (7 days) has closed.
          const late = {
            ...(await asyncMit()),
            declinedAtUtc: new Date((await env.currentTimeMs()) - 192 * HOUR).toISOString(),
          };
          expect(await handle.executeUpdate(evaluateUpdate, { args: [late] })).toMatchObject({
            outcome: 'DECLINED',
            status: 'Declined',
          });
          expect(await handle.result()).toEqual({ status: 'Declined' });
        });
        expect(activities.processorCharge).not.toHaveBeenCalled();
        expect(persisted.map((p) => [p.state.status, p.state.reasons.at(-1), p.events.length])).toEqual([
          ['Declined', 'rescue_window_closed', 0],
        ]);
      });

      it('retry times already passed are one attempt, not a burst; the schedule goes on from there', async () => {
        // A declined order taken up again as an async MIT rescue (a new attempt) keeps its creation
        // time, 73 hours ago, which the schedule counts from: its +1 minute ... +3 day retries have
        // passed, as they would have for an order whose workers were down those three days.
        const { activities } = fakes({ processorCharge: jest.fn(async () => softDecline) });
        const now = await env.currentTimeMs();
        const resume: OrderResume = {
          status: 'Declined',
          version: 1,
          serviceAttempts: 1,
          createdAtUtc: new Date(now - 73 * HOUR).toISOString(),
        };
        await withWorker(activities, async (taskQueue) => {
          const handle = await started(taskQueue, resume);
          const mit = { ...(await asyncMit()), attemptCount: 2 };
          expect(await handle.executeUpdate(evaluateUpdate, { args: [mit] })).toMatchObject({ outcome: 'SUBMITTED' });
          await env.sleep(100 * HOUR);
          await handle.terminate('test over');
        });
        const sentAt = (activities.processorCharge as jest.Mock).mock.calls.map(([c]) =>
          Math.round((Date.parse((c as ChargeInput).attemptedAtUtc as string) - now) / HOUR),
        );
        // One attempt for the six passed retry times, then +5 days (47 h on) and +7 days (95 h on).
        expect(chargeAttempts(activities)).toEqual([2, 3, 4]);
        expect(sentAt).toEqual([0, 47, 95]);
      });

      it("the last retry still unanswered at the window's end leaves a Problem, never an expiry over a possible charge", async () => {
        const { activities, persisted } = fakes({ processorCharge: processorFor(3, Number.POSITIVE_INFINITY) });
        await withWorker(activities, async (taskQueue) => {
          const handle = await started(taskQueue);
          await handle.executeUpdate(evaluateUpdate, { args: [await asyncMit(7)] });
          expect(await handle.result()).toEqual({ status: 'Problem' });
        });
        // The last retry let go after 12 tries, then 12 more at the window's end.
        expect(chargeAttempts(activities)).toEqual([1, 2, ...Array(24).fill(3)]);
        expect(activities.processorVoid).not.toHaveBeenCalled();
        expect(activities.processorReverse).not.toHaveBeenCalled();
        expect(persisted.at(-1)?.state).toMatchObject({
          status: 'Problem',
          serviceAttempts: 2,
          chargeOutcomeUnknown: true,
        });
        expect(persisted.at(-1)?.events).toEqual([]);
        expect(hoursToLastWrite(persisted)).toBeGreaterThanOrEqual(7);
      });
    });
  });
});
