import type { Db } from '../db/knex';
import type { OrderResume } from '../domain/orders/contracts';
import type { OrderStatusName } from '../domain/orders/status';

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
  const order:
    | {
        id: string;
        order_session_key: string;
        flow: string;
        status_name: OrderStatusName;
        attempt_count: number | null;
        version: number;
        service_attempts: number;
        created_at: Date;
      }
    | undefined = await db('orders')
    .select(
      'id',
      'order_session_key',
      'flow',
      'status_name',
      'attempt_count',
      'version',
      'service_attempts',
      'created_at',
    )
    .where({ merchant_id: merchantId, external_order_id: externalOrderId })
    .first();
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
