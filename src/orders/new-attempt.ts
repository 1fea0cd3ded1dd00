import type { Db } from '../db/knex';
import { findMerchantOrderByExternalId } from '../db/repositories/orders';
import type { OrderResume } from '../domain/orders/contracts';

/**
 * A further evaluate of a declined CIT order with a higher `attemptCount` ("2 = first retry") is
 * a new attempt on the same order: re-scored and re-charged, under the same orderId (issue 10).
 * Returns how to continue that order, or undefined when the evaluate is not a new attempt (it is
 * then answered from the order as it stands).
 */
export async function newAttemptOn(
  db: Db,
  merchantId: string,
  externalOrderId: string,
  attemptCount: number | undefined,
): Promise<{ orderId: string; orderSessionKey: string; resume: OrderResume } | undefined> {
  if (attemptCount === undefined) return undefined;
  const order = await findMerchantOrderByExternalId(db, merchantId, externalOrderId);
  if (order?.flow !== 'CIT' || order.status_name !== 'Declined') return undefined;
  if (attemptCount <= (order.attempt_count ?? 1)) return undefined;
  return {
    orderId: order.id,
    orderSessionKey: order.order_session_key,
    resume: {
      status: order.status_name,
      version: order.version,
      serviceAttempts: order.service_attempts,
      createdAtUtc: order.created_at.toISOString(),
    },
  };
}
