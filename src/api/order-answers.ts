import { ORDER_STATUS, type OrderStatusName } from '../domain/orders/status';
import type { Answer } from '../idempotency/run-once';
import type { Captured, Refunded } from '../orders/commands';
import type { EvaluateDecision } from '../orders/evaluate-decision';

/**
 * The order use cases' results as HTTP answers (src/orders/ returns what happened; this shapes
 * it). Their typed failures are mapped in order-failures.ts.
 */

/**
 * The envelope of every command answer (evaluate, capture, refund), as the FlexCharge clients
 * judge it: `status` is the outcome word, `success` says the request was processed (a DECLINED
 * evaluate is processed: HTTP 200, `success: true`, `status: "DECLINED"`). The order's numeric
 * status and its name move to `orderStatus` / `orderStatusName`; no `statusName` may shadow
 * the outcome word (docs/compatibility.md).
 */
export function commandAnswer(outcome: string, order: OrderStatusName, fields: Record<string, unknown>) {
  return {
    ...fields,
    success: true,
    result: 'Success',
    status: outcome,
    statusCode: null,
    errors: [] as unknown[],
    customProperties: {},
    orderStatus: ORDER_STATUS[order],
    orderStatusName: order,
  };
}

export function evaluateAnswer({ status, ...decision }: EvaluateDecision): Answer {
  return { status: 200, body: commandAnswer(decision.outcome, status, decision) };
}

/** The order's lookup view in the envelope; its own status fields give way to the envelope's. */
export function captureAnswer({ order, status }: Captured): Answer {
  const { status: _n, statusName: _s, ...view } = order;
  return { status: 200, body: commandAnswer('APPROVED', status, view) };
}

/** Cancelled: an empty body, as the interface states. */
export function cancelAnswer(): Answer {
  return { status: 200 };
}

export function refundAnswer({ status, ...refunded }: Refunded): Answer {
  return { status: 200, body: commandAnswer('APPROVED', status, refunded) };
}
