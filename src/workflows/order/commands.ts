import type {
  CancelInput,
  CancelResult,
  CaptureResult,
  ChallengeReport,
  ChallengeResult,
  CommandRefusal,
} from '../../domain/orders/contracts';
import { accepts, isCancellable } from '../../domain/orders/transitions';
import { processorWhileWaiting } from './activities';
import type { Order } from './order';
import { settleRetryBeforeCancel } from './retries';
import { captureAuthorized, chargeAfterChallenge, lapseCapture, leaveToOperator, voidAuthorization } from './steps';

/** The merchant's commands on an evaluated order (each runs alone: see Order.exclusive). */

const refused = (order: Order, reason: CommandRefusal['reason']): CommandRefusal => ({
  kind: 'refused',
  reason,
  status: order.state.status,
});

export async function capture(order: Order, amount: number | null): Promise<CaptureResult> {
  const s = order.state;
  if (!accepts(s.flow, s.status, 'capture')) return refused(order, 'not_capturable');
  if (Date.now() >= order.captureBefore().getTime()) {
    await lapseCapture(order, 'capture window closed', order.captureBefore());
    return refused(order, 'not_capturable');
  }
  const toCapture = amount ?? s.authorizedAmount;
  if (toCapture > s.authorizedAmount) return refused(order, 'capture_exceeds_authorized');
  if (!(await captureAuthorized(order, toCapture, 'captured'))) return refused(order, 'capture_refused');
  return { kind: 'captured', status: order.state.status, capturedAmount: toCapture };
}

/** Cancel and external-cancel: one operation on one order; a repeat is a no-op. */
export async function cancel(order: Order, { via }: CancelInput): Promise<CancelResult> {
  if (order.state.cancelledAtUtc) return { kind: 'cancelled', status: 'Cancelled' };
  const why = `cancelled by the merchant (${via})`;
  // An async MIT retry's charge left unanswered may have taken the money: settled and undone first.
  if (!(await settleRetryBeforeCancel(order))) return giveBackRefused(order, why);
  const s = order.state;
  if (!isCancellable(s.flow, s.status)) return refused(order, 'not_cancellable');
  // A void: stops a rescue not yet captured. It never reverses a settled charge (refund does).
  if (!(await voidAuthorization(order))) return giveBackRefused(order, why);
  await order.commit('cancel', { status: 'Cancelled', cancelledAtUtc: new Date().toISOString() }, why, [
    { name: 'order.cancelled' },
  ]);
  return { kind: 'cancelled', status: 'Cancelled' };
}

/** The processor would not give the approval back: nothing is cancelled, the order is an operator's. */
async function giveBackRefused(order: Order, why: string): Promise<CommandRefusal> {
  await leaveToOperator(order, 'cancel', `${why}, not done`);
  return refused(order, 'give_back_refused');
}

/** The challenge component reports what the cardholder did; a pass leads to the charge. */
export async function challenge(order: Order, result: ChallengeReport): Promise<ChallengeResult> {
  if (!accepts(order.state.flow, order.state.status, 'challenge')) return refused(order, 'not_in_challenge');
  const at = new Date().toISOString();
  // The charge after a pass went unanswered: whatever is reported now, that charge is settled
  // first (sent again under its key), and the order follows its answer.
  if (order.unsettledCharge) await chargeAfterChallenge(order, processorWhileWaiting, 'challenge');
  else if (result === 'attempted') {
    order.challengeAttempts += 1;
    await order.commit('challenge', {}, 'challenge attempted', [
      { name: 'challenge.attempted', attempt: order.challengeAttempts, attemptedAt: at },
    ]);
  } else if (result === 'failed') {
    await order.commit('challenge', { status: 'Declined', outcome: 'DECLINED' }, 'challenge failed', [
      { name: 'challenge.failed', failedAt: at },
    ]);
  } else {
    await order.commit('challenge', {}, 'challenge passed', [{ name: 'challenge.passed', passedAt: at }]);
    await chargeAfterChallenge(order, processorWhileWaiting, 'challenge');
  }
  return { kind: 'recorded', status: order.state.status, outcome: order.state.outcome };
}
