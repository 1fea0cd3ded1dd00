import * as wf from '@temporalio/workflow';
import type { ChargeResult } from '../../domain/orders/contracts';
import { processor, processorSettling, processorWhileWaiting } from './activities';
import type { Order } from './order';
import { approve, charge, expire, isOutcomeUnknown, outcomeUnknown, reverseUnsettledCharge } from './steps';

/**
 * An async MIT retry's charge. Bounded (patch `bound-retry-charges`): a processor replaying a
 * stored failure under the key must not hold the order for ever. A charge not answered, or
 * answered "unavailable" (a PaymentIntent still processing: money may yet move), stays unsettled:
 * the attempt does not advance, so the next retry time sends the same charge under the same key
 * (the card networks count it once). A cancel or the window's end cannot take a late approval:
 * they undo it (docs/orders.md, "Async MIT retry schedule").
 */

/** Patch id (docs/changing-workflows.md): async MIT retries charge within a bound, never for ever. */
export const BOUND_RETRY_CHARGES = 'bound-retry-charges';

/** One retry, then the order it moves: true once the rescue is over (rescued or hard-declined). */
export async function retryCharge(order: Order): Promise<boolean> {
  if (!wf.patched(BOUND_RETRY_CHARGES)) return recordRetryAnswer(order, await charge(order, processor));
  try {
    const result = await charge(order, processorSettling);
    if (result.result !== 'unavailable') return recordRetryAnswer(order, result);
    order.chargeUnanswered();
  } catch (err) {
    if (!isOutcomeUnknown(err)) throw err;
  }
  wf.log.warn('async MIT retry unanswered: sent again under its key at the next retry', {
    orderId: order.state.orderId,
    attempt: order.unsettledCharge,
  });
  return false;
}

async function recordRetryAnswer(order: Order, result: ChargeResult): Promise<boolean> {
  const attempt = order.state.serviceAttempts + 1;
  if (result.result === 'approved') {
    await approve(order, result.authorizationId, `rescued on retry ${attempt}`);
    return true;
  }
  if (result.result === 'hard_decline') {
    await expire(order, `hard decline ${result.code} on retry ${attempt}: never retried`);
    return true;
  }
  const code = 'code' in result ? result.code : null;
  await order.commit(
    { responseCode: code ?? order.state.responseCode },
    `retry ${attempt}: ${result.result}${code ? ` ${code}` : ''}`,
  );
  return false;
}

/**
 * Before a merchant's cancel: a retry's charge left unanswered is settled and any approval undone
 * (the merchant stops the rescue; the re-send may be the first to reach the processor). Still
 * unanswered: ChargeOutcomeUnknown (500 `500010`), nothing changed.
 */
export async function settleRetryBeforeCancel(order: Order): Promise<void> {
  if (order.unsettledCharge === null || order.state.status !== 'Processing') return;
  if (!wf.patched(BOUND_RETRY_CHARGES)) return;
  if ((await reverseUnsettledCharge(order, processorWhileWaiting)) === 'unsettled')
    throw outcomeUnknown("the rescue's last charge is still unanswered by the processor; try the cancel again");
}

/** The window has ended: a last retry left unanswered is settled and undone, or left to an operator. */
export async function closeWindow(order: Order, windowEnd: Date): Promise<void> {
  if (order.unsettledCharge !== null && wf.patched(BOUND_RETRY_CHARGES)) {
    const settlement = await reverseUnsettledCharge(order);
    if (settlement === 'unsettled') {
      await order.commit({ status: 'Problem' }, 'the last retry went unanswered at the end of the window');
      return;
    }
    if (settlement === 'undone') {
      await expire(order, "rescue window ended; the last retry's late approval was undone", windowEnd);
      return;
    }
  }
  await expire(order, 'rescue window ended', windowEnd);
}
