import * as wf from '@temporalio/workflow';
import { evaluateChargeDecision } from '../../domain/orders/charge-decision';
import type { EvaluateInput, EvaluateResult, OrderState } from '../../domain/orders/contracts';
import { FAILURE } from '../../domain/orders/failures';
import { paymentDifferences } from '../../domain/orders/same-payment';
import { type Outcome, outcomeForStatus } from '../../domain/orders/status';
import { accepts } from '../../domain/orders/transitions';
import { processorWhileWaiting } from './activities';
import { charge, failureTypeOf, outcomeUnknown } from './charging';
import type { Order } from './order';
import { cardBudget, heldUntil } from './retry-budget';
import { captureByFurtherEvaluate, confirmationId, lapseCapture } from './steps';

const MAX_RESCUE_WINDOW_MS = 21 * 24 * 3_600_000;

function answer(order: Order, outcome: Outcome): EvaluateResult {
  const s = order.state;
  return { kind: 'answer', orderId: s.orderId, orderSessionKey: s.orderSessionKey, outcome, status: s.status };
}

/** End of the MIT rescue window: expiryDateUtc, else the merchant's default, never past 21 days. */
function windowEnd(input: EvaluateInput): Date {
  const declinedAt = Date.parse(input.declinedAtUtc);
  const hours = input.flow === 'SYNC_MIT' ? input.settings.syncMitWindowHours : input.settings.defaultExpiryHours;
  const configured = input.expiryDateUtc ? Date.parse(input.expiryDateUtc) : declinedAt + hours * 3_600_000;
  return new Date(Math.min(configured, declinedAt + MAX_RESCUE_WINDOW_MS));
}

/** The order a first evaluate starts from (Draft, version 0 or the resumed one). */
export function draftOf(order: Order, input: EvaluateInput, at: Date): OrderState {
  const { resume, ...start } = order.start;
  return {
    version: resume?.version ?? 0,
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
    serviceAttempts: resume?.serviceAttempts ?? 0,
    attempts: [],
    declinedAtUtc: input.declinedAtUtc,
    windowEndsAtUtc: input.flow === 'CIT' ? null : windowEnd(input).toISOString(),
    captureBeforeUtc: null,
    confirmationId: null,
    authorizationId: null,
    score: null,
    reasons: [],
    deviceSignalsUsed: false,
    createdAtUtc: resume?.createdAtUtc ?? at.toISOString(),
    updatedAtUtc: at.toISOString(),
    completedAtUtc: null,
    cancelledAtUtc: null,
    expiredAtUtc: null,
  };
}

/**
 * The first evaluate decides the order. When a step it waits on cannot finish (our database or the
 * processor not answering in time) nothing is kept: the order stays unevaluated and the caller is
 * told to retry, which starts over with the same processor idempotency key. Once a charge was
 * sent, though, the retry does not decide afresh (a new score or a closed window could decline
 * while the first charge stands): it sends that charge again, under its key, and answers from
 * what the processor says, whatever the retry's own input.
 */
export async function firstEvaluate(order: Order, input: EvaluateInput): Promise<EvaluateResult> {
  const at = new Date();
  const resume = !!order.unsettledCharge;
  if (!resume) order.begin(draftOf(order, input, at), input);
  try {
    return resume ? await chargeAndAnswer(order, at) : await decide(order, input, at);
  } catch (err) {
    if (!order.evaluated) order.abandonDraft();
    if (wf.isCancellation(err)) throw err;
    const type = failureTypeOf(err);
    // Postgres refusing the data, and our own refusals (typed or bugs), are answers; anything else
    // (our database or the processor not answering in time) means "nothing decided, try again".
    if (type === FAILURE.persistenceRejected) throw err;
    if (err instanceof wf.ApplicationFailure && type !== FAILURE.storeUnavailable) throw err;
    throw wf.ApplicationFailure.create({
      type: FAILURE.temporarilyUnavailable,
      message: 'the evaluate could not be decided in time; nothing was decided, try again',
      nonRetryable: true,
    });
  }
}

async function decide(order: Order, input: EvaluateInput, at: Date): Promise<EvaluateResult> {
  const s = order.state;
  // A window already closed (a decline reported after it, with no expiryDateUtc) declines an MIT
  // at once. Async MIT since the patch (asked only then): before, it was accepted and expired
  // with no attempt, its expiry before its creation.
  const closed = input.flow !== 'CIT' && at.getTime() >= order.windowEnd().getTime();
  if (closed && (input.flow === 'SYNC_MIT' || wf.patched('async-mit-window-closed'))) {
    await order.commit(
      'evaluate',
      { status: 'Declined', outcome: 'DECLINED', reasons: ['rescue_window_closed'] },
      'window closed before evaluate',
    );
    return answer(order, 'DECLINED');
  }

  // The API scores the evaluate (src/orders/device-signals.ts) and sends the score with it.
  const { scored } = input;
  const scoring = { score: scored.score, reasons: scored.reasons, deviceSignalsUsed: scored.deviceSignalsUsed };
  if (scored.decision === 'decline') {
    await order.commit('evaluate', { ...scoring, status: 'Declined', outcome: 'DECLINED' }, 'declined by scoring');
    return answer(order, 'DECLINED');
  }
  Object.assign(s, scoring);

  // The card networks' limits on the card, across the merchant's orders (docs/network-rules.md):
  // nothing is sent when the card may not be charged now (CIT, Sync MIT), or before the window's
  // end (async MIT). The API reads a vaulted token's budget with its other reads (one local
  // activity less); a card number's, and older histories', the workflow reads.
  const budget = input.cardBudget !== undefined ? input.cardBudget : await cardBudget(order);
  const held = heldUntil(budget);
  if (held !== null && (input.flow !== 'ASYNC_MIT' || held >= order.windowEnd().getTime())) {
    await order.commit(
      'evaluate',
      { ...scoring, reasons: [...scoring.reasons, 'retry_budget_exhausted'], status: 'Declined', outcome: 'DECLINED' },
      `card retry budget exhausted (${budget?.heldBy}) until ${budget?.notBefore}`,
    );
    return answer(order, 'DECLINED');
  }

  if (input.flow === 'ASYNC_MIT') {
    // Durably accepted: the rescue runs on (runAsyncRetries) and reports by webhook.
    await order.commit('evaluate', { status: 'Processing', outcome: 'SUBMITTED' }, 'async MIT accepted');
    return answer(order, 'SUBMITTED');
  }

  return chargeAndAnswer(order, at);
}

/**
 * The CIT or Sync MIT charge the caller waits on, and the order it decides. The charge activity
 * records that order with the processor's answer, in one statement, and the workflow adopts it
 * (one local activity and one activation fewer). Runs started before that commit it here, as
 * their histories did (OrderWorkflowInput.chargeRecordsDecision), and so does a charge answered by
 * an activity that recorded no order (the workflow tests' fakes).
 */
async function chargeAndAnswer(order: Order, at: Date): Promise<EvaluateResult> {
  const result = await charge(
    order,
    processorWhileWaiting,
    false,
    order.start.chargeRecordsDecision ? 'decide' : undefined,
  );
  if (!result.decided) {
    const ctx = {
      now: new Date(),
      captureWindowMinutes: order.captureWindowMinutes,
      challengeFrom: at,
      confirmationId,
    };
    const decided = evaluateChargeDecision(order.state, result, ctx);
    await order.commit('evaluate', decided.changes, decided.reason, decided.events);
  }
  return answerOfState(order);
}

/** The answer the decided order gives: its outcome, or "rescue unavailable" for a Problem. */
function answerOfState(order: Order): EvaluateResult {
  const s = order.state;
  if (s.status === 'Problem') return { kind: 'rescue_unavailable', orderId: s.orderId };
  return answer(order, outcomeForStatus(s.status));
}

/**
 * Turns away (in the evaluate validator, so nothing enters the history) a further evaluate that is
 * another payment than the order's: concurrent first evaluates of one externalOrderId with other
 * amounts all reach this workflow, and only the one that decided the order may be answered with it.
 */
export function refuseAnotherPayment(order: Order, input: EvaluateInput): void {
  if (!order.evaluated) return;
  const s = order.state;
  const differs = paymentDifferences(s, { ...input, sameCard: input.card.token === s.card.token });
  if (!differs.length) return;
  throw wf.ApplicationFailure.create({
    type: FAILURE.orderRequestMismatch,
    message: `a further evaluate with another ${differs.join(', ')} is not the same payment`,
    details: [{ differs, orderId: s.orderId, status: s.status }],
  });
}

/** A further evaluate answers from the state; on a Sync MIT order awaiting capture it captures. */
export async function furtherEvaluate(order: Order): Promise<EvaluateResult> {
  const s = order.state;
  if (s.flow === 'SYNC_MIT') {
    const awaitingCapture = accepts(s.flow, s.status, 'capture');
    let outcome: 'APPROVED' | 'DECLINED' | undefined;
    if (Date.now() >= order.windowEnd().getTime()) {
      // Hard cutoff, no grace: even a rescued order awaiting capture cannot complete late.
      if (awaitingCapture) await lapseCapture(order, 'sync MIT window closed', order.windowEnd());
      outcome = 'DECLINED';
    } else if (awaitingCapture) outcome = (await captureByFurtherEvaluate(order)) ? 'APPROVED' : 'DECLINED';
    // Left to an operator just now (the processor would not void the authorization): as Problem.
    const leftToOperator = order.state.status === 'Problem' && s.status !== 'Problem';
    if (outcome && !leftToOperator) return answer(order, outcome);
  }
  const now = order.state;
  if (now.status === 'Problem') {
    // As the read model answers once the run has closed: a charge that may stand is never "fall
    // back to the decline" (src/orders/further-evaluate.ts).
    if (now.chargeOutcomeUnknown) throw outcomeUnknown('the rescue ended with a charge the processor never answered');
    return { kind: 'rescue_unavailable', orderId: now.orderId };
  }
  return answer(order, outcomeForStatus(s.status));
}
