import type { Priority } from '@temporalio/common';
import type { Flow } from '../domain/orders/status';

/**
 * Temporal task priority (1 runs first, 5 last; 3 when unset), which the server's matching applies
 * to a backlogged task queue (`matching.useNewMatcher`, docs/deployment.md). A workflow's every
 * task, and the activities it schedules, inherit the priority it was started with.
 *
 * Why: a burst of async MIT acceptances comes back an hour later as a burst of retries, and while
 * that backlog outlasts an evaluate's deadline, a checkout behind it on the same queue answers 503
 * (docs/benchmarks.md, `bench:checkout-under-retries`). A retry may run minutes late; a shopper
 * cannot wait. So a CIT order (a shopper at checkout, then its capture and challenge) goes first, a
 * refund (a merchant's call waiting on a short workflow with no timers) next, and MIT orders, whose
 * own evaluates share their retries' level, at the default.
 */
export const CHECKOUT: Priority = { priorityKey: 1 };
export const MERCHANT_CALL: Priority = { priorityKey: 2 };
export const BACKGROUND: Priority = { priorityKey: 3 };

/** The priority an order's workflow starts with: its flow's. */
export function orderPriority(flow: Flow): Priority {
  return flow === 'CIT' ? CHECKOUT : BACKGROUND;
}
