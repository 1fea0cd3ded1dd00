import type { Db } from '../knex';

export interface DeliveryRow {
  id: string;
  event_id: string;
  endpoint_id: string;
  status: 'pending' | 'delivered' | 'failed' | 'stopped';
  attempts: number;
  next_attempt_at: Date | null;
  delivered_at: Date | null;
  created_at: Date;
}

export async function recordAttempt(
  db: Db,
  input: {
    deliveryId: string;
    attempt: number;
    isResent: boolean;
    startedAt: Date;
    statusCode: number | null;
    error: string | null;
    latencyMs: number;
    succeeded: boolean;
    nextAttemptAt: Date | null;
  },
): Promise<void> {
  await db.transaction(async (trx) => {
    await trx('webhook_attempts').insert({
      delivery_id: input.deliveryId,
      attempt: input.attempt,
      is_resent: input.isResent,
      started_at: input.startedAt,
      status_code: input.statusCode,
      error: input.error,
      latency_ms: input.latencyMs,
      succeeded: input.succeeded,
    });
    await trx('webhook_deliveries')
      .where({ id: input.deliveryId })
      .update({
        attempts: trx.raw('attempts + 1'),
        status: input.succeeded ? 'delivered' : input.nextAttemptAt ? 'pending' : 'failed',
        next_attempt_at: input.succeeded ? null : input.nextAttemptAt,
        ...(input.succeeded ? { delivered_at: input.startedAt } : {}),
      });
  });
}

/** The delivery log of an endpoint, newest first, with every attempt. */
export async function deliveryLog(db: Db, endpointId: string, limit: number) {
  const deliveries = await db('webhook_deliveries as d')
    .join('events as e', 'e.id', 'd.event_id')
    .where('d.endpoint_id', endpointId)
    .orderBy('d.created_at', 'desc')
    .limit(limit)
    .select('d.*', 'e.name as event_name');
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
