import type { OrderStatusName, Outcome } from '../domain/orders/status';

/**
 * What an evaluate decided (evaluate.ts, further-evaluate.ts): the order, its outcome and its
 * status now. A DECLINED is a decision like any other, not a failure.
 */
export interface EvaluateDecision {
  orderId: string;
  orderSessionKey: string;
  senseKey: string | null;
  externalOrderId: string;
  outcome: Outcome;
  status: OrderStatusName;
}
