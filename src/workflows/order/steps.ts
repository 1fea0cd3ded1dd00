import * as wf from '@temporalio/workflow';
import { approval, completion } from '../../domain/orders/charge-decision';
import { FAILURE } from '../../domain/orders/failures';
import { accepts, type OrderTrigger } from '../../domain/orders/transitions';
import { processor, type processorSettling } from './activities';
import { charge, failureTypeOf, GIVE_BACK_REFUSED, giveBack } from './charging';
import type { Order } from './order';

type ProcessorApi = typeof processor | typeof processorSettling;

/** Steps several flows share: charging, approving, completing and expiring an order. */

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
  const ctx = { now: new Date(), captureWindowMinutes: order.captureWindowMinutes, confirmationId };
  const decided = approval(order.state, authorizationId, ctx, reason);
  await order.commit(trigger, decided.changes, reason, decided.events);
}

export async function complete(
  order: Order,
  trigger: OrderTrigger,
  authorizationId: string,
  captured: number,
  reason: string,
): Promise<void> {
  const done = completion(order.state, authorizationId, captured, { now: new Date(), confirmationId }, reason);
  await order.commit(trigger, done.changes, reason, done.events);
}

/** A completed order's confirmation id, from the workflow's seeded random (stable on replay). */
export const confirmationId = (): string => wf.uuid4();

/**
 * Captures what was authorized (a capture or a Sync MIT further evaluate), then completes; false
 * when the processor refused the capture for good (the authorization released at the processor):
 * the order is unchanged, the refusal on the capture's ledger row.
 */
export async function captureAuthorized(order: Order, amount: number, via: string): Promise<boolean> {
  const authorizationId = order.authorizationId();
  const call = order.charges.sending('capture', order.state.serviceAttempts, amount);
  let captured: { captureId: string; key?: string };
  try {
    captured = await processor.processorCapture({ call, authorizationId });
  } catch (err) {
    if (failureTypeOf(err) !== FAILURE.processorRefused) throw err;
    order.charges.done('capture', call.attempt, call.key, 'refused');
    return false;
  }
  order.charges.done('capture', call.attempt, captured.key);
  await complete(order, 'capture', authorizationId, amount, `${via} (${captured.captureId})`);
  return true;
}

/** A Sync MIT further evaluate's capture: refused for good, the rescue ends as if its window closed. */
export async function captureByFurtherEvaluate(order: Order): Promise<boolean> {
  if (await captureAuthorized(order, order.state.authorizedAmount, 'captured by a further evaluate')) return true;
  await expire(order, 'capture', 'the processor refused the capture');
  return false;
}

/**
 * Voids an authorization still open (awaiting capture: cancel, expiry); nothing to void otherwise.
 * False when the processor refused the void for good: the authorization stands.
 */
export async function voidAuthorization(order: Order): Promise<boolean> {
  const s = order.state;
  if (accepts(s.flow, s.status, 'capture') && s.authorizationId)
    return giveBack(order, 'void', s.serviceAttempts, s.authorizationId, s.authorizedAmount);
  return true;
}

/** An approval the processor would not give back: the order is left to an operator (Problem). */
export async function leaveToOperator(order: Order, trigger: OrderTrigger, reason: string): Promise<void> {
  // The money stands: a further evaluate is never told to fall back to the decline (500010).
  await order.commit(trigger, { status: 'Problem', chargeOutcomeUnknown: true }, `${reason}: ${GIVE_BACK_REFUSED}`);
}

/**
 * The rescue could not be made in its window: Cancelled (status 2) with order.expired. `closedAt`
 * is the end of the window that closed (the timer may fire a moment later); `byBudget` when the
 * card's retry budget, not the window, ended it (its EventData says so).
 */
export async function expire(
  order: Order,
  trigger: OrderTrigger,
  reason: string,
  closedAt: Date = new Date(),
  byBudget?: { rule: string; retryAllowedAt: string },
): Promise<void> {
  if (!(await voidAuthorization(order))) return leaveToOperator(order, trigger, reason);
  await order.commit(trigger, { status: 'Cancelled', expiredAtUtc: closedAt.toISOString() }, reason, [
    byBudget ? { name: 'order.expired', endedBy: 'retry_budget', ...byBudget } : { name: 'order.expired' },
  ]);
}

/**
 * The capture deadline passed with the authorization uncaptured (its timer, or a capture or
 * further evaluate arriving late): voided. A CIT authorization is cancelled by the system
 * (order.cancelled); order.expired is for MIT rescue windows (interface, Events).
 */
export async function lapseCapture(order: Order, reason: string, deadline: Date = new Date()): Promise<void> {
  if (order.state.flow !== 'CIT') return expire(order, 'capture-deadline', reason, deadline);
  if (!(await voidAuthorization(order))) return leaveToOperator(order, 'capture-deadline', reason);
  await order.commit('capture-deadline', { status: 'Cancelled', cancelledAtUtc: new Date().toISOString() }, reason, [
    { name: 'order.cancelled' },
  ]);
}
