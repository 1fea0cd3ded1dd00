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
 * goes first, a refund (a merchant's call waiting on a short workflow with no timers) next, and MIT
 * orders, whose own evaluates share their retries' level, at the default.
 *
 * Fairness: within a level, tasks are dispatched in turn across merchants (the fairness key), so
 * one merchant's retry wave delays another merchant's evaluates by its share, not by its backlog.
 */
const CHECKOUT = 1;
const MERCHANT_CALL = 2;
const BACKGROUND = 3;

/** The priority an order's workflow starts with: its flow's level, its merchant's turn. */
export function orderPriority(flow: Flow, merchantId: string): Priority {
  return { priorityKey: flow === 'CIT' ? CHECKOUT : BACKGROUND, fairnessKey: merchantId };
}

/** The priority of a refund's workflow. */
export function refundPriority(merchantId: string): Priority {
  return { priorityKey: MERCHANT_CALL, fairnessKey: merchantId };
}
