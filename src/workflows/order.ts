import * as wf from '@temporalio/workflow';
import type { OrderActivities } from '../activities/orders';
import type {
  CancelInput,
  CancelResult,
  CaptureResult,
  ChallengeReport,
  ChallengeResult,
  ChargeResult,
  EvaluateInput,
  EvaluateResult,
  OrderState,
  OrderWorkflowInput,
  PersistOrderInput,
  RefundInput,
  RefundResult,
} from '../domain/orders/contracts';
import type { OrderEvent, OrderEventName } from '../domain/orders/events';
import { retryTimes } from '../domain/orders/retry-schedule';
import { isCancellable, type OrderStatusName, type Outcome, outcomeForStatus } from '../domain/orders/status';
import { orderSearchAttributes } from './search-attributes';

/**
 * One workflow per order (id derived from merchant and externalOrderId): the single writer of the
 * order's state. Evaluate arrives by Update-With-Start; a further evaluate, capture, cancel,
 * external-cancel and refund are Updates on the same workflow, run one at a time. Durable timers
 * model every window. Each transition is written to Postgres (state, transition, events) before
 * the update that caused it answers.
 */

export const evaluateUpdate = wf.defineUpdate<EvaluateResult, [EvaluateInput]>('evaluate');
export const captureUpdate = wf.defineUpdate<CaptureResult, [{ amount: number | null }]>('capture');
export const cancelUpdate = wf.defineUpdate<CancelResult, [CancelInput]>('cancel');
export const refundUpdate = wf.defineUpdate<RefundResult, [RefundInput]>('refund');
export const challengeUpdate = wf.defineUpdate<ChallengeResult, [{ result: ChallengeReport }]>('challenge');
export const orderStateQuery = wf.defineQuery<OrderState | null>('state');

/** How long a completed order stays open for refunds (then refund answers 409). */
export const REFUND_WINDOW_MS = 180 * 24 * 3_600_000;
/** How long a CIT challenge waits for the cardholder before the order is cancelled. */
export const CHALLENGE_TIMEOUT_MS = 15 * 60_000;
const MAX_RESCUE_WINDOW_MS = 21 * 24 * 3_600_000;

// Local activities: these steps are short and a caller is usually waiting on them, so they run in
// the worker that runs the workflow, without a round trip through the server's task queues (the
// evaluate benchmark measured them as most of the server's CPU). Their results are still recorded
// in the history. Persistence must happen: retried until it does. Processor calls made while a
// caller waits on evaluate are bounded, so the API answers within seconds.
const durable = wf.proxyLocalActivities<OrderActivities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m' },
});
const bounded = wf.proxyLocalActivities<OrderActivities>({
  startToCloseTimeout: '10s',
  retry: { initialInterval: '500ms', backoffCoefficient: 2, maximumAttempts: 3 },
});

interface RefundRecord {
  transactionId: string;
  amount: number;
  kind: 'full' | 'partial';
  idempotencyKey: string | null;
}

export async function orderWorkflow(start: OrderWorkflowInput): Promise<{ status: OrderStatusName }> {
  let state: OrderState | null = null;
  let evaluation: EvaluateInput | null = null;
  const refunds: RefundRecord[] = [];

  // Updates run one at a time: each waits for the previous one to finish.
  let queue: Promise<unknown> = Promise.resolve();
  function exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = queue.then(fn);
    queue = run.catch(() => undefined);
    return run;
  }

  const now = () => new Date();
  const iso = (d: Date) => d.toISOString();
  const current = (): OrderState => {
    if (!state) throw wf.ApplicationFailure.nonRetryable('order not evaluated yet');
    return state;
  };

  async function commit(
    changes: Partial<OrderState>,
    reason: string,
    events: Array<{ name: OrderEventName; data: OrderEvent['data'] }> = [],
    refund?: PersistOrderInput['refund'],
  ): Promise<void> {
    const s = current();
    const from = s.version === 0 ? null : s.status;
    Object.assign(s, changes, { version: s.version + 1, updatedAtUtc: iso(now()) });
    const recorded: OrderEvent[] = events.map((e) => ({
      id: wf.uuid4(),
      name: e.name,
      occurredAt: s.updatedAtUtc,
      data: e.data,
    }));
    await durable.persistOrder({
      state: { ...s, card: { ...s.card }, reasons: [...s.reasons] },
      transition: from === s.status ? null : { from, to: s.status, reason },
      events: recorded,
      ...(refund ? { refund } : {}),
    });
    wf.upsertSearchAttributes(orderSearchAttributes(s));
  }

  function windowEnd(input: EvaluateInput): Date {
    const declinedAt = Date.parse(input.declinedAtUtc);
    const hours = input.flow === 'SYNC_MIT' ? input.settings.syncMitWindowHours : input.settings.defaultExpiryHours;
    const configured = input.expiryDateUtc ? Date.parse(input.expiryDateUtc) : declinedAt + hours * 3_600_000;
    return new Date(Math.min(configured, declinedAt + MAX_RESCUE_WINDOW_MS));
  }

  function answer(outcome: Outcome): EvaluateResult {
    const s = current();
    return { kind: 'answer', orderId: s.orderId, orderSessionKey: s.orderSessionKey, outcome, status: s.status };
  }

  async function charge(
    mode: 'sale' | 'authorize',
    api: typeof bounded,
    challengeCompleted = false,
  ): Promise<ChargeResult> {
    const s = current();
    s.serviceAttempts += 1;
    try {
      return await api.processorCharge({
        merchantId: s.merchantId,
        cardToken: s.card.token,
        amount: s.amount,
        currency: s.currency,
        mode,
        flow: s.flow,
        attempt: s.serviceAttempts,
        threeDSecure: evaluation?.threeDSecure ?? null,
        challengeCompleted,
      });
    } catch {
      return { result: 'unavailable' };
    }
  }

  /** Applies a processor approval: completed (sale) or waiting for capture (authorize). */
  async function approved(authorizationId: string, reason: string): Promise<void> {
    const s = current();
    const input = evaluation as EvaluateInput;
    if (s.transactionType === 'AUTHORIZATION' || s.flow === 'SYNC_MIT') {
      const captureBefore =
        s.flow === 'SYNC_MIT'
          ? (s.windowEndsAtUtc as string)
          : iso(new Date(now().getTime() + input.settings.captureWindowMinutes * 60_000));
      await commit(
        {
          status: 'Capturerequired',
          outcome: 'CAPTUREREQUIRED',
          authorizationId,
          authorizedAmount: s.amount,
          captureBeforeUtc: captureBefore,
        },
        reason,
        [
          {
            name: 'order.capturerequired',
            data: { Amount: s.amount, Currency: s.currency, CaptureBefore: captureBefore },
          },
        ],
      );
    } else {
      await complete(authorizationId, s.amount, reason);
    }
  }

  async function complete(authorizationId: string, captured: number, reason: string): Promise<void> {
    const s = current();
    await commit(
      {
        status: 'Completed',
        outcome: 'APPROVED',
        authorizationId,
        authorizedAmount: Math.max(s.authorizedAmount, captured),
        capturedAmount: captured,
        confirmationId: wf.uuid4(),
        completedAtUtc: iso(now()),
      },
      reason,
      [{ name: 'order.completed', data: null }],
    );
  }

  /**
   * The rescue could not be made in its window: Cancelled (status 2) with order.expired. `closedAt`
   * is the end of the window that closed (the timer may be handled a moment later).
   */
  async function expire(reason: string, closedAt: Date = now()): Promise<void> {
    const s = current();
    if (s.status === 'Capturerequired' && s.authorizationId)
      await durable.processorVoid({ authorizationId: s.authorizationId });
    await commit({ status: 'Cancelled', expiredAtUtc: iso(closedAt) }, reason, [{ name: 'order.expired', data: null }]);
  }

  // ---- evaluate: the first one decides; a further one answers from the state (Sync MIT: captures)
  wf.setHandler(evaluateUpdate, (input) =>
    exclusive(async () => {
      if (state) return furtherEvaluate();
      evaluation = input;
      const at = now();
      const isMitFlow = input.flow !== 'CIT';
      state = {
        version: 0,
        ...start,
        flow: input.flow,
        transactionType: input.transactionType,
        isMIT: input.isMIT,
        isRecurring: input.isRecurring,
        status: 'Draft',
        outcome: null,
        amount: input.amount,
        currency: input.currency,
        authorizedAmount: 0,
        capturedAmount: 0,
        refundedAmount: 0,
        card: input.card,
        senseKey: input.senseKey,
        responseCode: input.responseCode,
        attemptCount: input.attemptCount,
        serviceAttempts: 0,
        declinedAtUtc: input.declinedAtUtc,
        windowEndsAtUtc: isMitFlow ? iso(windowEnd(input)) : null,
        captureBeforeUtc: null,
        confirmationId: null,
        authorizationId: null,
        score: null,
        reasons: [],
        deviceSignalsUsed: false,
        createdAtUtc: iso(at),
        updatedAtUtc: iso(at),
        completedAtUtc: null,
        cancelledAtUtc: null,
        expiredAtUtc: null,
      };
      const s = state;

      if (input.flow === 'SYNC_MIT' && at.getTime() >= Date.parse(s.windowEndsAtUtc as string)) {
        await commit(
          { status: 'Declined', outcome: 'DECLINED', reasons: ['rescue_window_closed'] },
          'window closed before evaluate',
        );
        return answer('DECLINED');
      }

      const scored = await bounded.scoreTransaction({
        merchantId: s.merchantId,
        flow: s.flow,
        amount: s.amount,
        currency: s.currency,
        responseCode: s.responseCode,
        attemptCount: s.attemptCount,
        isMIT: s.isMIT,
        isRecurring: s.isRecurring,
        bin: s.card.bin,
        senseKey: s.senseKey,
        externalOrderId: s.externalOrderId,
      });
      Object.assign(s, { score: scored.score, reasons: scored.reasons, deviceSignalsUsed: scored.deviceSignalsUsed });
      if (scored.decision === 'decline') {
        await commit({ status: 'Declined', outcome: 'DECLINED' }, 'declined by scoring');
        return answer('DECLINED');
      }

      if (input.flow === 'ASYNC_MIT') {
        // Durably accepted: the rescue runs on (main loop below) and reports by webhook.
        await commit({ status: 'Processing', outcome: 'SUBMITTED' }, 'async MIT accepted');
        return answer('SUBMITTED');
      }

      const mode = input.flow === 'SYNC_MIT' || input.transactionType === 'AUTHORIZATION' ? 'authorize' : 'sale';
      const result = await charge(mode, bounded);
      switch (result.result) {
        case 'approved':
          await approved(result.authorizationId, 'approved by the processor');
          return answer(current().outcome as Outcome);
        case 'challenge_required':
          await commit({ status: 'Onhold', outcome: 'CHALLENGE' }, 'cardholder challenge required', [
            { name: 'challenge.presented', data: { ExpiresAt: iso(new Date(at.getTime() + CHALLENGE_TIMEOUT_MS)) } },
          ]);
          return answer('CHALLENGE');
        case 'unavailable':
          await commit({ status: 'Problem' }, 'processor unavailable');
          return { kind: 'rescue_unavailable', orderId: s.orderId };
        default:
          await commit(
            { status: 'Declined', outcome: 'DECLINED', responseCode: result.code },
            `processor ${result.result} ${result.code}`,
          );
          return answer('DECLINED');
      }
    }),
  );

  async function furtherEvaluate(): Promise<EvaluateResult> {
    const s = current();
    if (s.flow === 'SYNC_MIT') {
      const closed = now().getTime() >= Date.parse(s.windowEndsAtUtc as string);
      if (closed) {
        // Hard cutoff, no grace: even a rescued order awaiting capture cannot complete late.
        if (s.status === 'Capturerequired') await expire('sync MIT window closed');
        return answer('DECLINED');
      }
      if (s.status === 'Capturerequired') {
        const { captureId } = await durable.processorCapture({
          authorizationId: s.authorizationId as string,
          amount: s.authorizedAmount,
        });
        await complete(
          s.authorizationId as string,
          s.authorizedAmount,
          `captured by a further evaluate (${captureId})`,
        );
        return answer('APPROVED');
      }
    }
    if (s.status === 'Problem') return { kind: 'rescue_unavailable', orderId: s.orderId };
    return answer(outcomeForStatus(s.status));
  }

  // ---- capture
  wf.setHandler(captureUpdate, ({ amount }) =>
    exclusive(async (): Promise<CaptureResult> => {
      const s = current();
      const deadline = s.captureBeforeUtc ? Date.parse(s.captureBeforeUtc) : Number.POSITIVE_INFINITY;
      if (s.status !== 'Capturerequired' || now().getTime() >= deadline) {
        if (s.status === 'Capturerequired') await expire('capture window closed');
        return { kind: 'refused', reason: 'not_capturable', status: current().status };
      }
      const toCapture = amount ?? s.authorizedAmount;
      if (toCapture > s.authorizedAmount)
        return { kind: 'refused', reason: 'capture_exceeds_authorized', status: s.status };
      const { captureId } = await durable.processorCapture({
        authorizationId: s.authorizationId as string,
        amount: toCapture,
      });
      await complete(s.authorizationId as string, toCapture, `captured (${captureId})`);
      return { kind: 'captured', status: current().status, capturedAmount: toCapture };
    }),
  );

  // ---- cancel and external-cancel: one operation on one order; a repeat is a no-op
  wf.setHandler(cancelUpdate, ({ via }) =>
    exclusive(async (): Promise<CancelResult> => {
      const s = current();
      if (s.status === 'Cancelled' && s.cancelledAtUtc) return { kind: 'cancelled', status: 'Cancelled' };
      if (!isCancellable(s.flow, s.status)) return { kind: 'refused', reason: 'not_cancellable', status: s.status };
      // A void: stops a rescue not yet captured. It never reverses a settled charge (refund does).
      if (s.status === 'Capturerequired' && s.authorizationId)
        await durable.processorVoid({ authorizationId: s.authorizationId });
      await commit({ status: 'Cancelled', cancelledAtUtc: iso(now()) }, `cancelled by the merchant (${via})`, [
        { name: 'order.cancelled', data: null },
      ]);
      return { kind: 'cancelled', status: 'Cancelled' };
    }),
  );

  // ---- refund
  wf.setHandler(refundUpdate, (input) =>
    exclusive(async (): Promise<RefundResult> => {
      const s = current();
      const replay = (r: RefundRecord): RefundResult => ({
        kind: 'refunded',
        transactionId: r.transactionId,
        amount: r.amount,
        refundedAmount: s.refundedAmount,
        status: s.status,
        replayed: true,
      });
      const isFull = input.amount === null || input.amount === s.capturedAmount;
      const previous = isFull
        ? refunds.find((r) => r.kind === 'full')
        : refunds.find((r) => r.idempotencyKey !== null && r.idempotencyKey === input.idempotencyKey);
      if (previous) return replay(previous);
      if (s.status !== 'Completed') return { kind: 'refused', reason: 'not_refundable', status: s.status };
      const amount = input.amount ?? s.capturedAmount - s.refundedAmount;
      if (amount <= 0 || s.refundedAmount + amount > s.capturedAmount) {
        return { kind: 'refused', reason: 'refund_exceeds_captured', status: s.status };
      }
      const record: RefundRecord = {
        transactionId: input.transactionId,
        amount,
        kind: isFull ? 'full' : 'partial',
        idempotencyKey: input.idempotencyKey,
      };
      const { processorReference } = await durable.processorRefund({
        authorizationId: s.authorizationId as string,
        amount,
        transactionId: input.transactionId,
      });
      refunds.push(record);
      const refundedAmount = s.refundedAmount + amount;
      const at = iso(now());
      await commit(
        { refundedAmount, status: refundedAmount === s.capturedAmount ? 'Returned' : 'Completed' },
        `${record.kind} refund ${input.transactionId}`,
        [
          {
            name: 'order.refunded',
            data: {
              Timestamp: at,
              Message: record.kind === 'full' ? 'Full refund processed' : 'Partial refund processed',
              TransactionId: input.transactionId,
              InitialTransactionReference: s.authorizationId as string,
              Amount: amount,
              Currency: s.currency,
            },
          },
        ],
        { ...record, processorReference },
      );
      return {
        kind: 'refunded',
        transactionId: input.transactionId,
        amount,
        refundedAmount,
        status: current().status,
        replayed: false,
      };
    }),
  );

  // ---- challenge: the challenge component reports what the cardholder did
  let challengeAttempts = 0;
  wf.setHandler(challengeUpdate, ({ result }) =>
    exclusive(async (): Promise<ChallengeResult> => {
      const s = current();
      if (s.status !== 'Onhold') return { kind: 'refused', reason: 'not_in_challenge', status: s.status };
      const at = iso(now());
      if (result === 'attempted') {
        challengeAttempts += 1;
        await commit({}, 'challenge attempted', [
          { name: 'challenge.attempted', data: { Attempt: challengeAttempts, AttemptedAt: at } },
        ]);
      } else if (result === 'failed') {
        await commit({ status: 'Declined', outcome: 'DECLINED' }, 'challenge failed', [
          { name: 'challenge.failed', data: { FailedAt: at } },
        ]);
      } else {
        await commit({}, 'challenge passed', [{ name: 'challenge.passed', data: { PassedAt: at } }]);
        const mode = s.transactionType === 'AUTHORIZATION' ? 'authorize' : 'sale';
        const charged = await charge(mode, bounded, true);
        if (charged.result === 'approved') await approved(charged.authorizationId, 'approved after the challenge');
        else
          await commit({ status: 'Declined', outcome: 'DECLINED' }, `processor ${charged.result} after the challenge`);
      }
      return { kind: 'recorded', status: current().status, outcome: current().outcome };
    }),
  );

  wf.setHandler(orderStateQuery, () => state);

  // ---- main: wait for the first evaluate, then hold the order's windows open
  if (!(await wf.condition(() => state !== null && state.version > 0, '1 hour'))) return { status: 'Draft' };
  const s = current();
  const waitWhile = (status: OrderStatusName, until: Date) =>
    wf.condition(() => s.status !== status, Math.max(0, until.getTime() - now().getTime()));

  if (s.flow === 'ASYNC_MIT' && s.status === 'Processing') {
    const windowEndsAt = new Date(s.windowEndsAtUtc as string);
    const mode = s.transactionType === 'AUTHORIZATION' ? 'authorize' : 'sale';
    for (const at of retryTimes(Date.parse(s.createdAtUtc), windowEndsAt.getTime())) {
      if (await waitWhile('Processing', new Date(at))) break; // cancelled meanwhile
      const result = await exclusive(async () => (s.status === 'Processing' ? charge(mode, durable) : undefined));
      if (!result) break;
      if (result.result === 'approved') {
        await exclusive(() => approved(result.authorizationId, `rescued on retry ${s.serviceAttempts}`));
        break;
      }
      if (result.result === 'hard_decline') {
        await exclusive(() => expire(`hard decline ${result.code} on retry ${s.serviceAttempts}: never retried`));
        break;
      }
      const code = 'code' in result ? result.code : null;
      await exclusive(() =>
        commit(
          { responseCode: code ?? s.responseCode },
          `retry ${s.serviceAttempts}: ${result.result}${code ? ` ${code}` : ''}`,
        ),
      );
    }
    if (s.status === 'Processing' && !(await waitWhile('Processing', windowEndsAt))) {
      await exclusive(async () =>
        s.status === 'Processing' ? expire('rescue window ended', windowEndsAt) : undefined,
      );
    }
  }
  if (s.status === 'Onhold') {
    if (!(await waitWhile('Onhold', new Date(Date.parse(s.updatedAtUtc) + CHALLENGE_TIMEOUT_MS)))) {
      await exclusive(async () =>
        s.status === 'Onhold'
          ? commit({ status: 'Cancelled', cancelledAtUtc: iso(now()) }, 'challenge timed out', [
              { name: 'order.cancelled', data: null },
            ])
          : undefined,
      );
    }
  }
  if (s.status === 'Capturerequired') {
    const deadline = new Date(s.captureBeforeUtc as string);
    if (!(await waitWhile('Capturerequired', deadline))) {
      await exclusive(async () =>
        s.status === 'Capturerequired'
          ? expire(s.flow === 'SYNC_MIT' ? 'sync MIT window closed uncaptured' : 'capture window lapsed', deadline)
          : undefined,
      );
    }
  }
  if (s.status === 'Completed' || s.status === 'Returned') {
    // Stay open through the refund window: refunds, and replays of refunds already made, reach the
    // order here. Afterwards refund answers 409 from the read model.
    await wf.sleep(Math.max(0, Date.parse(s.completedAtUtc as string) + REFUND_WINDOW_MS - now().getTime()));
  }
  await wf.condition(wf.allHandlersFinished);
  return { status: s.status };
}
