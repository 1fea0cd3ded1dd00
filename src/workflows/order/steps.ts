import * as wf from '@temporalio/workflow';
import type { ChargeResult } from '../../domain/orders/contracts';
import { FAILURE } from '../../domain/orders/failures';
import { accepts, type OrderTrigger } from '../../domain/orders/transitions';
import { processor, processorSettling } from './activities';
import type { Order } from './order';

/** Steps several flows share: charging, approving, completing and expiring an order. */
type ProcessorApi = typeof processor | typeof processorSettling;

/**
 * One charge attempt. The attempt number (and so the processor's idempotency key) advances only
 * once the processor's answer is recorded by a commit; until then the caller is told to try again
 * and the retry reuses the same key, so the processor returns its first answer instead of
 * charging twice.
 */
export async function charge(order: Order, api: ProcessorApi, challengeCompleted = false): Promise<ChargeResult> {
  const s = order.state;
  const attempt = s.serviceAttempts + 1;
  const mode = chargeMode(s);
  order.chargeSent(attempt);
  try {
    const result = await api.processorCharge({
      idempotencyKey: `${s.orderId}:charge:${attempt}`,
      merchantId: s.merchantId,
      cardToken: s.card.token,
      amount: s.amount,
      currency: s.currency,
      mode,
      flow: s.flow,
      attempt,
      threeDSecure: order.evaluation?.threeDSecure ?? null,
      challengeCompleted,
    });
    order.chargeAnswered(attempt);
    return result;
  } catch (err) {
    if (wf.isCancellation(err)) throw err;
    // Even when the last attempt failed before the processor (our vault read), an earlier one
    // may have reached it and timed out: the activity's final failure says nothing of those.
    throw outcomeUnknown('the processor did not answer the charge in time; its outcome is not known, try again');
  }
}

/** The failure that tells a caller a charge's outcome is not known (500 `500010`: try again). */
export function outcomeUnknown(message: string): wf.ApplicationFailure {
  return wf.ApplicationFailure.create({ type: FAILURE.chargeOutcomeUnknown, message, nonRetryable: true });
}

/** A charge that went unanswered (the processor's outcome is not known). */
export function isOutcomeUnknown(err: unknown): boolean {
  return err instanceof wf.ApplicationFailure && err.type === FAILURE.chargeOutcomeUnknown;
}

function chargeMode(s: { flow: string; transactionType: string }): 'authorize' | 'sale' {
  return s.flow === 'SYNC_MIT' || s.transactionType === 'AUTHORIZATION' ? 'authorize' : 'sale';
}

/** What settling an unanswered charge found (`unsettled`: the processor would not say). */
export type Settlement = 'undone' | 'not_charged' | 'unsettled';

/**
 * A charge sent and never answered whose approval can no longer be taken: a first evaluate never
 * decided nor retried within its hour (the merchant holds no order), an async MIT retry at a
 * merchant's cancel or at the window's end. Whatever it did is undone, as a technical cancel. The
 * charge is sent again under its key (the processor answers its first outcome; if the first never
 * reached it, it charges now) and an approval is voided (authorization) or refunded in full
 * (sale). A processor that still does not answer, or answers "unavailable" (it could not act, or
 * could not say), leaves the charge unsettled.
 */
export async function reverseUnsettledCharge(order: Order, api: ProcessorApi = processorSettling): Promise<Settlement> {
  const s = order.state;
  const attempt = s.serviceAttempts + 1;
  const key = `${s.orderId}:charge:${attempt}`;
  let result: ChargeResult;
  try {
    result = await charge(order, api);
  } catch (err) {
    if (wf.isCancellation(err)) throw err;
    return 'unsettled';
  }
  if (result.result === 'unavailable') {
    order.chargeUnanswered();
    return 'unsettled';
  }
  if (result.result !== 'approved') return 'not_charged';
  if (chargeMode(s) === 'authorize')
    await processor.processorVoid({ idempotencyKey: `${key}:void`, authorizationId: result.authorizationId });
  else
    await processor.processorRefund({
      refundId: `${key}:reversal`,
      authorizationId: result.authorizationId,
      amount: s.amount,
    });
  // Should the write that follows be refused, a later re-send of this attempt must not rescue.
  order.reversedCharge = attempt;
  return 'undone';
}

/** The charge after a passed challenge (reported, or settled at the timeout), and the order it decides. */
export async function chargeAfterChallenge(
  order: Order,
  api: ProcessorApi,
  trigger: 'challenge' | 'challenge-timeout',
): Promise<void> {
  const charged = await charge(order, api, true);
  if (charged.result === 'approved')
    await approve(order, trigger, charged.authorizationId, 'approved after the challenge');
  // "Unavailable" (the processor refused the request) is no decline of the card: an operator looks.
  else if (charged.result === 'unavailable')
    await order.commit(trigger, { status: 'Problem' }, 'processor unavailable after the challenge');
  else
    await order.commit(
      trigger,
      { status: 'Declined', outcome: 'DECLINED' },
      `processor ${charged.result} after the challenge`,
    );
}

/** A processor approval: completed (sale) or waiting for capture (authorize, Sync MIT). */
export async function approve(
  order: Order,
  trigger: OrderTrigger,
  authorizationId: string,
  reason: string,
): Promise<void> {
  const s = order.state;
  const settings = order.evaluation?.settings;
  if (s.transactionType === 'AUTHORIZATION' || s.flow === 'SYNC_MIT') {
    const captureBefore =
      s.flow === 'SYNC_MIT'
        ? order.windowEnd().toISOString()
        : new Date(Date.now() + (settings?.captureWindowMinutes ?? 5) * 60_000).toISOString();
    await order.commit(
      trigger,
      {
        status: 'Capturerequired',
        outcome: 'CAPTUREREQUIRED',
        authorizationId,
        authorizedAmount: s.amount,
        captureBeforeUtc: captureBefore,
      },
      reason,
      [{ name: 'order.capturerequired', amount: s.amount, currency: s.currency, captureBefore }],
    );
  } else {
    await complete(order, trigger, authorizationId, s.amount, reason);
  }
}

export async function complete(
  order: Order,
  trigger: OrderTrigger,
  authorizationId: string,
  captured: number,
  reason: string,
): Promise<void> {
  const s = order.state;
  await order.commit(
    trigger,
    {
      status: 'Completed',
      outcome: 'APPROVED',
      authorizationId,
      authorizedAmount: Math.max(s.authorizedAmount, captured),
      capturedAmount: captured,
      confirmationId: wf.uuid4(),
      completedAtUtc: new Date().toISOString(),
    },
    reason,
    [{ name: 'order.completed' }],
  );
}

/** Captures what was authorized (a capture or a Sync MIT further evaluate), then completes. */
export async function captureAuthorized(order: Order, amount: number, via: string): Promise<void> {
  const authorizationId = order.authorizationId();
  const { captureId } = await processor.processorCapture({
    idempotencyKey: `${order.state.orderId}:capture`,
    authorizationId,
    amount,
  });
  await complete(order, 'capture', authorizationId, amount, `${via} (${captureId})`);
}

/** Voids an authorization still open (awaiting capture: cancel, expiry); nothing to void otherwise. */
export async function voidAuthorization(order: Order): Promise<void> {
  const s = order.state;
  if (accepts(s.flow, s.status, 'capture') && s.authorizationId)
    await processor.processorVoid({ idempotencyKey: `${s.orderId}:void`, authorizationId: s.authorizationId });
}

/**
 * The rescue could not be made in its window: Cancelled (status 2) with order.expired. `closedAt`
 * is the end of the window that closed (the timer may fire a moment later).
 */
export async function expire(
  order: Order,
  trigger: OrderTrigger,
  reason: string,
  closedAt: Date = new Date(),
): Promise<void> {
  await voidAuthorization(order);
  await order.commit(trigger, { status: 'Cancelled', expiredAtUtc: closedAt.toISOString() }, reason, [
    { name: 'order.expired' },
  ]);
}

/**
 * The capture deadline passed with the authorization uncaptured (its timer, or a capture or
 * further evaluate arriving late): voided. A CIT authorization is cancelled by the system
 * (order.cancelled); order.expired is for MIT rescue windows (interface, Events).
 */
export async function lapseCapture(order: Order, reason: string, deadline: Date = new Date()): Promise<void> {
  if (order.state.flow !== 'CIT') return expire(order, 'capture-deadline', reason, deadline);
  await voidAuthorization(order);
  await order.commit('capture-deadline', { status: 'Cancelled', cancelledAtUtc: new Date().toISOString() }, reason, [
    { name: 'order.cancelled' },
  ]);
}
