import { highestChargeAttempt } from '../db/repositories/charges';
import { findMerchantOrderByExternalId } from '../db/repositories/orders';
import type { OrderResume } from '../domain/orders/contracts';
import { OrderFailure } from '../domain/orders/order-failure';
import type { OrderDeps } from './deps';

/**
 * A further evaluate of a declined CIT order with a higher `attemptCount` ("2 = first retry") is
 * a new attempt on the same order: re-scored and re-charged, under the same orderId (issue 10).
 * Returns how to continue that order, or undefined when the evaluate is not a new attempt (it is
 * then answered from the order as it stands).
 *
 * An earlier new attempt whose run closed undecided may have left a charge the order never
 * recorded (sent, its answer lost, and nobody retried within the hour), or one its run's close
 * could not settle. Those are reconciled first, as an unevaluated run's are (sent again under
 * their own key and request, an approval given back: src/workflows/charge-reconciliation.ts),
 * and the new attempt is numbered after every attempt the ledger has, so it is sent under a new
 * key: never the request of one attempt under another's key. A charge the processor still will
 * not settle turns the new attempt away as "outcome not known" (500 `500010`; docs/runbook.md).
 */
export async function newAttemptOn(
  deps: Pick<OrderDeps, 'db' | 'workflows'>,
  merchantId: string,
  externalOrderId: string,
  attemptCount: number | undefined,
): Promise<{ orderId: string; orderSessionKey: string; resume: OrderResume } | undefined> {
  if (attemptCount === undefined) return undefined;
  const order = await findMerchantOrderByExternalId(deps.db, merchantId, externalOrderId);
  if (order?.flow !== 'CIT' || order.status_name !== 'Declined') return undefined;
  if (attemptCount <= (order.attempt_count ?? 1)) return undefined;
  const highest = await highestChargeAttempt(deps.db, merchantId, order.id);
  if (highest > order.service_attempts) {
    const reconcile = { merchantId, orderId: order.id, afterAttempt: order.service_attempts };
    if (!(await deps.workflows.closedRuns.reconcileCharges(reconcile)))
      throw new OrderFailure({ reason: 'order_outcome_pending' });
  }
  return {
    orderId: order.id,
    orderSessionKey: order.order_session_key,
    resume: {
      status: order.status_name,
      version: order.version,
      serviceAttempts: Math.max(order.service_attempts, highest),
      createdAtUtc: order.created_at.toISOString(),
    },
  };
}
