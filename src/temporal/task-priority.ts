import type { Priority } from '@temporalio/common';
import type { Flow } from '../domain/orders/status';

/**
 * Temporal task priority (1 runs first, 5 last; 3 when unset) and fairness, which the server's
 * matching applies to a backlogged task queue (`matching.useNewMatcher`, `matching.enableFairness`:
 * docs/deployment.md). A workflow's every task, and the activities it schedules, inherit what it
 * was started with.
 *
 * Priority: a burst of async MIT acceptances comes back an hour later as a burst of retries, and
 * while that backlog outlasts an evaluate's deadline, a checkout behind it on the same queue
 * answers 503 (docs/benchmarks.md, `bench:checkout-under-retries`). A retry may run minutes late;
 * a shopper cannot wait. So a CIT order (a shopper at checkout, then its capture and challenge)
 * goes first, a refund (a merchant's call waiting on a short workflow with no timers) next, MIT
 * orders at the default, and an async MIT order once accepted below them all: its evaluate is
 * answered, and what remains (retries on timers, a merchant's cancel) may wait while a backlog
 * clears. A workflow cannot start low and rise, so the API lowers an accepted order's level after
 * its evaluate answers, where the server can (src/orders/accepted-rescues.ts).
 *
 * Fairness: within a level, tasks are dispatched in turn across merchants (the fairness key), so
 * one merchant's retry wave delays another merchant's evaluates by its share, not by its backlog.
 */
const CHECKOUT = 1;
const MERCHANT_CALL = 2;
const BACKGROUND = 3;
const ACCEPTED_RESCUE = 4;

/** The priority an order's workflow starts with: its flow's level, its merchant's turn. */
export function orderPriority(flow: Flow, merchantId: string): Priority {
  return { priorityKey: flow === 'CIT' ? CHECKOUT : BACKGROUND, fairnessKey: merchantId };
}

/** The priority of a refund's workflow. */
export function refundPriority(merchantId: string): Priority {
  return { priorityKey: MERCHANT_CALL, fairnessKey: merchantId };
}

/** An async MIT order's level once its evaluate answered SUBMITTED: behind every evaluate. */
export function acceptedRescuePriority(merchantId: string): Priority {
  return { priorityKey: ACCEPTED_RESCUE, fairnessKey: merchantId };
}
