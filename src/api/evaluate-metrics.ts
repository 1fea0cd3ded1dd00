import type { OnceResult } from '../idempotency/run-once';
import { businessMetrics } from '../observability/metrics';
import type { OrderClient } from '../orders/order-client';

/**
 * `rescue_evaluates_total` by outcome and flow (docs/runbook.md#metrics-and-alerts), counted from
 * the evaluate use case's own answer, not from the HTTP text. The flow is the one the use case
 * sent the order's workflow (CIT, or the merchant's MIT evaluation: SYNC_MIT, ASYNC_MIT): it
 * watches the OrderClient it is given for the input of its first evaluate. One count per
 * evaluate the use case answered 200 for this request; a replay of a stored answer (the same
 * idempotencyKey again) is not counted again, and an answer the key store could not keep (503)
 * is not counted, since its retry runs the use case once more.
 */
export function evaluateCounter(workflows: OrderClient): {
  /** Hand this OrderClient to the use case. */
  workflows: OrderClient;
  /** Counts what the idempotency layer sent, once sent. */
  count(sent: OnceResult): void;
} {
  let flow: string | undefined;
  // Every other method as the real client's (through the prototype chain); evaluate observed.
  const observed: OrderClient = Object.create(workflows);
  observed.evaluate = (...args: Parameters<OrderClient['evaluate']>) => {
    flow ??= args[2].flow;
    return workflows.evaluate(...args);
  };
  return {
    workflows: observed,
    count(sent) {
      const outcome = (sent.answer?.body as { outcome?: unknown } | undefined)?.outcome;
      if (sent.replayed || sent.status !== 200 || typeof outcome !== 'string') return;
      businessMetrics.evaluate(outcome, flow ?? 'unknown');
    },
  };
}
