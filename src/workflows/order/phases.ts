import * as wf from '@temporalio/workflow';
import { CHALLENGE_TIMEOUT_MS } from '../../domain/orders/charge-decision';
import { retryTimes } from '../../domain/orders/retry-schedule';
import type { OrderStatusName } from '../../domain/orders/status';
import { processorSettling } from './activities';
import { isOutcomeUnknown } from './charging';
import type { Order } from './order';
import { closeWindow, retryCharge, settleBy } from './retries';
import { holdRetryForBudget } from './retry-budget';
import { chargeAfterChallenge, lapseCapture } from './steps';

/**
 * What the workflow does on its own while an order waits in a status: one phase per timed trigger
 * of the transition table (src/domain/orders/transitions.ts). Each phase returns only once the
 * status has changed (by a command or by the phase).
 */
export type Phase = (order: Order) => Promise<void>;

/** Waits until the status is no longer `status` (true) or `until` passes (false). */
function leaves(order: Order, status: OrderStatusName, until: Date): Promise<boolean> {
  return wf.condition(() => order.state.status !== status, Math.max(0, until.getTime() - Date.now()));
}

/** Whether the order is still in the status its phase waits in (a command may have moved it). */
const still = (order: Order, status: OrderStatusName): boolean => order.state.status === status;

/**
 * Async MIT: retries on the card-network-compliant schedule until rescued or the window ends. A
 * retry left unanswered is sent again at the next retry time, or earlier while its processor key
 * is still trusted (src/workflows/order/retries.ts). Before each new attempt the card's retry
 * budget (all of the merchant's orders of the card) may move it later, or end the rescue
 * (src/workflows/order/retry-budget.ts).
 */
export const runAsyncRetries: Phase = async (order) => {
  const waiting = order.state.status;
  const windowEnd = order.windowEnd();
  let times = retryTimes(Date.parse(order.state.createdAtUtc), windowEnd.getTime());
  for (let next = 0; ; ) {
    // Slots missed together (the workers or Temporal down for a while) are one attempt, the
    // latest, not a burst of charges seconds apart. Asked only then, so no other order records
    // the patch's marker; histories with such a burst replay as they ran.
    const missed = latestPassed(times, next, Date.now());
    if (missed > next && wf.patched('collapse-missed-retries')) next = missed;
    const due = times[next] ?? windowEnd.getTime();
    const settle = settleBy(order);
    const at = settle !== null && settle < due ? settle : due;
    if (await leaves(order, waiting, new Date(at))) return; // cancelled meanwhile
    if (at === due && next === times.length) break; // the window's end
    let held: number | null = null;
    const done = await order.exclusive(async () => {
      if (!still(order, waiting)) return true;
      // A new attempt spends the card's budget (every order of the card at this merchant counts);
      // sending an unanswered charge again under its key is no new attempt.
      if (!order.unsettledCharge) {
        const hold = await holdRetryForBudget(order, windowEnd);
        if (hold === 'ended') return true;
        if (hold !== null) {
          held = hold;
          return false;
        }
      }
      return retryCharge(order, at !== due);
    });
    if (done) return;
    if (held !== null) {
      // The next attempt moves to the time the budget allows; the slots it passes are skipped.
      const until: number = held;
      times = [...times.slice(0, next), until, ...times.slice(next).filter((t) => t > until)];
      continue;
    }
    if (at === due) next += 1;
  }
  await order.exclusive(async () => {
    if (still(order, waiting)) await closeWindow(order, windowEnd);
  });
};

/** The index of the latest slot from `from` on that has passed at `now`; `from` if none after it has. */
function latestPassed(times: readonly number[], from: number, now: number): number {
  let latest = from;
  while (latest + 1 < times.length && (times[latest + 1] as number) <= now) latest += 1;
  return latest;
}

/** CIT challenge: the cardholder has a while to pass it; then the order is cancelled. */
export const awaitChallenge: Phase = async (order) => {
  const waiting = order.state.status;
  const deadline = new Date(Date.parse(order.state.updatedAtUtc) + CHALLENGE_TIMEOUT_MS);
  if (await leaves(order, waiting, deadline)) return;
  await order.exclusive(async () => {
    if (!still(order, waiting)) return;
    // The cardholder passed and the charge went unanswered, and nobody retried: it is settled
    // (sent again under its key), not left standing; a processor that still will not answer
    // leaves the order a Problem for an operator (docs/runbook.md), never silently cancelled.
    if (order.unsettledCharge) {
      await chargeAfterChallenge(order, processorSettling, 'challenge-timeout').catch(async (err: unknown) => {
        if (!isOutcomeUnknown(err)) throw err;
        await order.commit(
          'challenge-timeout',
          { status: 'Problem' },
          'the charge after the challenge went unanswered',
        );
      });
      return;
    }
    await order.commit(
      'challenge-timeout',
      { status: 'Cancelled', cancelledAtUtc: new Date().toISOString() },
      'challenge timed out',
      [{ name: 'order.cancelled' }],
    );
  });
};

/** Authorize flows and Sync MIT: a capture (or further evaluate) must come before the deadline. */
export const awaitCapture: Phase = async (order) => {
  const waiting = order.state.status;
  const deadline = order.captureBefore();
  if (await leaves(order, waiting, deadline)) return;
  await order.exclusive(async () => {
    if (!still(order, waiting)) return;
    const reason = order.state.flow === 'SYNC_MIT' ? 'sync MIT window closed uncaptured' : 'capture window lapsed';
    await lapseCapture(order, reason, deadline);
  });
};
