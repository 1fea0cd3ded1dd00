/**
 * Workflow ids from business keys, so every command for one order reaches the same workflow and
 * the same refund asked twice reaches the same refund workflow (the ids act as locks).
 */
export function orderWorkflowId(merchantId: string, externalOrderId: string): string {
  return `order:${merchantId}:${externalOrderId}`;
}

/** One refund of one order: the merchant's idempotencyKey for a partial refund, "full" for the full one. */
export function refundWorkflowId(
  orderId: string,
  refund: { kind: 'full' } | { kind: 'partial'; idempotencyKey: string },
): string {
  return `refund:${orderId}:${refund.kind === 'full' ? 'full' : refund.idempotencyKey}`;
}

/** The reconciliation of the charges of an order's run that closed undecided (one at a time). */
export function chargeReconciliationWorkflowId(orderId: string): string {
  return `reconcile-charges:${orderId}`;
}
