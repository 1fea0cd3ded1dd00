import type { Db } from '../knex';
import type { WebhookDeliveryRecord } from '../tables/webhook-deliveries';

/** What the delivery log reads of a delivery row. */
type DeliveryRow = Pick<
  WebhookDeliveryRecord,
  'id' | 'event_id' | 'endpoint_id' | 'status' | 'attempts' | 'next_attempt_at' | 'delivered_at' | 'created_at'
>;

/** The delivery log of an endpoint, newest first, with every attempt. */
export async function deliveryLog(db: Db, endpointId: string, limit: number) {
  const deliveries = await db('webhook_deliveries as d')
    .join('events as e', 'e.id', 'd.event_id')
    .where('d.endpoint_id', endpointId)
    .orderBy('d.created_at', 'desc')
    .limit(limit)
    .select('d.*', 'e.name as event_name');
  return withAttempts(db, deliveries);
}

/**
 * The deliveries of one order's events to the merchant's own endpoints, oldest first, with every
 * attempt (GET /v1/orders/{id}/webhook-deliveries). A partner's endpoints are the partner's
 * business: a merchant's credential does not see them.
 */
export async function orderDeliveryLog(db: Db, merchantId: string, orderId: string, limit: number) {
  const deliveries = await db('webhook_deliveries as d')
    .join('events as e', 'e.id', 'd.event_id')
    .join('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
    .where({ 'e.order_id': orderId, 'e.merchant_id': merchantId, 'w.merchant_id': merchantId })
    .orderBy([
      { column: 'd.created_at', order: 'asc' },
      { column: 'd.id', order: 'asc' },
    ])
    .limit(limit)
    .select('d.*', 'e.name as event_name');
  return withAttempts(db, deliveries);
}

async function withAttempts(db: Db, deliveries: Array<DeliveryRow & { event_name: string }>) {
  const attempts = deliveries.length
    ? await db('webhook_attempts')
        .whereIn(
          'delivery_id',
          deliveries.map((d) => d.id),
        )
        .orderBy('id', 'asc')
    : [];
  return deliveries.map((d) => ({
    deliveryId: d.id,
    endpointId: d.endpoint_id,
    eventId: d.event_id,
    event: d.event_name,
    status: d.status,
    nextAttemptAt: d.next_attempt_at?.toISOString() ?? null,
    deliveredAt: d.delivered_at?.toISOString() ?? null,
    attempts: attempts
      .filter((a) => a.delivery_id === d.id)
      .map((a) => ({
        attempt: a.attempt,
        isResent: a.is_resent,
        startedAt: a.started_at.toISOString(),
        statusCode: a.status_code,
        latencyMs: a.latency_ms,
        error: a.error,
        succeeded: a.succeeded,
      })),
  }));
}
