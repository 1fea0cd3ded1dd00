import * as wf from '@temporalio/workflow';
import { chargeOf, KEY_TRUSTED_MS } from '../../domain/orders/charge-attempts';
import type { ChargeResult } from '../../domain/orders/contracts';
import { accepts } from '../../domain/orders/transitions';
import { processorSettling, processorWhileWaiting } from './activities';
import { charge, isOutcomeUnknown, outcomeUnknown, reverseUnsettledCharge } from './charging';
import type { Order } from './order';
import { approve, expire, leaveToOperator } from './steps';

/**
 * An async MIT retry's charge. Bounded: a processor replaying a
 * stored failure under the key must not hold the order for ever. A charge not answered stays
 * unsettled: the attempt does not advance, so the next retry time sends the same charge under the
 * same key (the card networks see one attempt, the processor answers its first outcome). Only
 * while the processor still knows the key (Stripe keeps one for 24 hours; after that the same key
 * charges anew): a charge unanswered KEY_TRUSTED_MS after it was first sent is sent once more
 * then, and still unanswered leaves the order Problem for an operator. A cancel or the window's
 * end cannot take a late approval: they undo it (docs/orders.md, "Async MIT retry schedule").
 */

/** When an unanswered charge must be settled while its key is trusted; null if none is unanswered. */
export function settleBy(order: Order): number | null {
  const unsettled = order.unsettledCharge;
  return unsettled ? Date.parse(unsettled.createdAtUtc) + KEY_TRUSTED_MS : null;
}

/**
 * One retry (`lastChance`: the key's trust ends), then the order it moves: true once the rescue
 * is over (rescued, hard-declined, or left to an operator).
 */
export async function retryCharge(order: Order, lastChance = false): Promise<boolean> {
  // A charge sent again under its key only learns what became of it: "unavailable" (say, Stripe
  // refusing our credentials) says nothing of the first send, which may have charged. Such an
  // answer leaves it unsettled, rather than a new attempt under a new key. Asked only then, so
  // no other order records the patch's marker.
  const resending = order.unsettledCharge !== undefined;
  try {
    const result = await charge(order, processorSettling, false, undefined, resending);
    if (!(resending && result.result === 'unavailable' && wf.patched('resend-unavailable-unsettled')))
      return await recordRetryAnswer(order, result);
    order.charges.unanswered(order.state.serviceAttempts + 1);
  } catch (err) {
    if (!isOutcomeUnknown(err)) throw err;
  }
  if (lastChance) {
    await order.commit('retry', { status: 'Problem' }, 'a retry went unanswered for as long as its key is kept');
    return true;
  }
  wf.log.warn('async MIT retry unanswered: sent again under its key later', {
    orderId: order.state.orderId,
    attempt: order.unsettledCharge?.attempt,
  });
  return false;
}

async function recordRetryAnswer(order: Order, result: ChargeResult): Promise<boolean> {
  const attempt = order.state.serviceAttempts + 1;
  // The approval a cancel (or the window's end) already undid, replayed by its key: the write of
  // that cancel was refused, so the order is left to an operator, never recorded as rescued.
  if (result.result === 'approved' && chargeOf(order.charges.all, attempt)?.state === 'reversed') {
    await order.commit(
      'retry',
      { status: 'Problem' },
      `retry ${attempt}'s approval was undone by a cancel never recorded`,
    );
    return true;
  }
  if (result.result === 'approved') {
    await approve(order, 'retry', result.authorizationId, `rescued on retry ${attempt}`);
    return true;
  }
  if (result.result === 'hard_decline') {
    await expire(order, 'retry', `hard decline ${result.code} on retry ${attempt}: never retried`);
    return true;
  }
  const code = 'code' in result ? result.code : null;
  await order.commit(
    'retry',
    { responseCode: code ?? order.state.responseCode },
    `retry ${attempt}: ${result.result}${code ? ` ${code}` : ''}`,
  );
  return false;
}

/**
 * Before a merchant's cancel: a retry's charge left unanswered is settled and any approval undone
 * (the merchant stops the rescue; the re-send may be the first to reach the processor). Still
 * unanswered: ChargeOutcomeUnknown (500 `500010`), nothing changed. False when the approval could
 * not be undone (the processor refused for good): the charge stands.
 */
export async function settleRetryBeforeCancel(order: Order): Promise<boolean> {
  const s = order.state;
  if (!order.unsettledCharge || !accepts(s.flow, s.status, 'retry')) return true;
  const settlement = await reverseUnsettledCharge(order, processorWhileWaiting);
  if (settlement === 'unsettled')
    throw outcomeUnknown("the rescue's last charge is still unanswered by the processor; try the cancel again");
  return settlement !== 'refused';
}

/** The window has ended: a last retry left unanswered is settled and undone, or left to an operator. */
export async function closeWindow(order: Order, windowEnd: Date): Promise<void> {
  if (order.unsettledCharge) {
    const settlement = await reverseUnsettledCharge(order);
    if (settlement === 'unsettled') {
      await order.commit(
        'window-end',
        { status: 'Problem' },
        'the last retry went unanswered at the end of the window',
      );
      return;
    }
    if (settlement === 'refused') {
      await leaveToOperator(order, 'window-end', "rescue window ended with the last retry's late approval");
      return;
    }
    if (settlement === 'undone') {
      await expire(order, 'window-end', "rescue window ended; the last retry's late approval was undone", windowEnd);
      return;
    }
  }
  await expire(order, 'window-end', 'rescue window ended', windowEnd);
}
