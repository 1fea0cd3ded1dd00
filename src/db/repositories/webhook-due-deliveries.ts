import type { Db } from '../knex';

/**
 * The schedule of deliveries driven by the per-endpoint workflow (docs/webhooks.md, "Delivery"):
 * a pending row is due at `next_attempt_at`; a worker claims due rows for a lease, attempts them
 * and records each attempt with the next due time in one transaction. A worker that dies holding
 * claimed rows loses them when the lease ends, and another claims them again: nothing is lost,
 * and a recorded attempt is never made again.
 */

/** A delivery of an event to an endpoint, as the fan-out, a resend or a test event creates it. */
export interface NewDelivery {
  id: string;
  event_id: string;
  endpoint_id: string;
}

/** Inserts deliveries due now (an existing one for the same event and endpoint is kept as it is). */
export async function insertDueDeliveries(db: Db, rows: NewDelivery[]): Promise<void> {
  if (!rows.length) return;
  await db('webhook_deliveries')
    .insert(rows.map((r) => ({ ...r, status: 'pending', next_attempt_at: db.fn.now() })))
    .onConflict(['event_id', 'endpoint_id'])
    .ignore();
}

/**
 * A manual resend: the deliveries become pending again, due now, on a new round of the retry
 * schedule whose every attempt carries IsResent; their id (the IdempotencyKey) is unchanged.
 */
export async function resendDeliveries(db: Db, rows: NewDelivery[]): Promise<void> {
  if (!rows.length) return;
  await db('webhook_deliveries')
    .insert(
      rows.map((r) => ({
        ...r,
        status: 'pending',
        resend: true,
        next_attempt_at: db.fn.now(),
      })),
    )
    .onConflict(['event_id', 'endpoint_id'])
    .merge({
      status: 'pending',
      resend: true,
      next_attempt_at: db.fn.now(),
      round_started_at: null,
      round_attempts: 0,
      lease_until: null,
    } as never);
}

/** An event row joined to its delivery, as the envelope needs it. */
export interface EnvelopeSource {
  delivery_id: string;
  name: string;
  occurred_at: Date;
  data: unknown;
  merchant_id: string | null;
  partner_id: string;
  external_order_id: string | null;
  order_id: string | null;
  confirmation_id: string | null;
  is_test_mode: boolean;
  is_test_event: boolean;
}

export interface ClaimedDelivery extends EnvelopeSource {
  resend: boolean;
  round_started_at: Date | null;
  round_attempts: number;
}

/**
 * Claims up to `limit` of the endpoint's deliveries due at `now` (workflow time), oldest due
 * first, for `leaseMs`; rows another worker holds (locked or leased) are skipped.
 */
export async function claimDueDeliveries(
  db: Db,
  input: { endpointId: string; now: Date; limit: number; leaseMs: number },
): Promise<ClaimedDelivery[]> {
  const { rows } = await db.raw(
    `with claimed as (
       update webhook_deliveries d set lease_until = now() + make_interval(secs => ?)
        where d.id in (
          select id from webhook_deliveries
           where endpoint_id = ? and status = 'pending' and next_attempt_at <= ?
             and (lease_until is null or lease_until < now())
           order by next_attempt_at limit ? for update skip locked)
       returning d.id, d.event_id, d.resend, d.round_started_at, d.round_attempts, d.next_attempt_at)
     select c.id as delivery_id, c.resend, c.round_started_at, c.round_attempts, e.name, e.occurred_at, e.data,
            e.merchant_id, e.partner_id, e.external_order_id, e.order_id, e.confirmation_id, e.is_test_mode,
            e.is_test_event
       from claimed c join events e on e.id = c.event_id
      order by c.next_attempt_at`,
    [input.leaseMs / 1000, input.endpointId, input.now, input.limit],
  );
  return rows as ClaimedDelivery[];
}

/** What one attempt of a claimed delivery came to. */
export interface AttemptRecord {
  deliveryId: string;
  attempt: number;
  isResent: boolean;
  startedAt: Date;
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  succeeded: boolean;
  /** When the schedule's round started (this attempt's time for the first of a round). */
  roundStartedAt: Date;
  /** The next attempt's due time; null when this was the last of the schedule (or it succeeded). */
  nextAttemptAt: Date | null;
}

/** Records a batch of attempts and each delivery's new state in one transaction, releasing the lease. */
export async function recordAttempts(db: Db, records: AttemptRecord[]): Promise<void> {
  if (!records.length) return;
  await db.transaction(async (trx) => {
    await trx('webhook_attempts').insert(
      records.map((r) => ({
        delivery_id: r.deliveryId,
        attempt: r.attempt,
        is_resent: r.isResent,
        started_at: r.startedAt,
        status_code: r.statusCode,
        error: r.error,
        latency_ms: r.latencyMs,
        succeeded: r.succeeded,
      })),
    );
    await trx.raw(
      `update webhook_deliveries d set
         attempts = d.attempts + 1, round_attempts = d.round_attempts + 1, lease_until = null,
         round_started_at = v.round_started_at, status = v.status, next_attempt_at = v.next_at,
         delivered_at = case when v.status = 'delivered' then v.started_at else d.delivered_at end
       from unnest(?::uuid[], ?::text[], ?::timestamptz[], ?::timestamptz[], ?::timestamptz[])
         as v(id, status, started_at, round_started_at, next_at)
       where d.id = v.id and d.status = 'pending'`,
      [
        records.map((r) => r.deliveryId),
        records.map((r) => (r.succeeded ? 'delivered' : r.nextAttemptAt ? 'pending' : 'failed')),
        records.map((r) => r.startedAt.toISOString()),
        records.map((r) => r.roundStartedAt.toISOString()),
        // pg sends null array elements as NULL
        records.map((r) => (r.succeeded ? null : (r.nextAttemptAt?.toISOString() ?? null))) as string[],
      ],
    );
  });
}

/** The endpoint is disabled or deleted: the claimed deliveries stop (no attempt is made). */
export async function stopDeliveries(db: Db, ids: string[]): Promise<void> {
  if (!ids.length) return;
  await db('webhook_deliveries')
    .whereIn('id', ids)
    .andWhere({ status: 'pending' })
    .update({ status: 'stopped', next_attempt_at: null, lease_until: null });
}

/** Gives back claimed deliveries not attempted (the call's time ran out): due again at once. */
export async function releaseClaims(db: Db, ids: string[]): Promise<void> {
  if (!ids.length) return;
  await db('webhook_deliveries').whereIn('id', ids).andWhere({ status: 'pending' }).update({ lease_until: null });
}

/**
 * When the endpoint's next delivery is due (a claimed one: when its lease ends), or null when
 * none is pending.
 */
export async function nextDueAt(db: Db, endpointId: string): Promise<Date | null> {
  const row = await db('webhook_deliveries')
    .where({ endpoint_id: endpointId, status: 'pending' })
    .first<{ due: Date | null } | undefined>(db.raw('min(greatest(next_attempt_at, lease_until)) as due'));
  return row?.due ?? null;
}

/** Endpoints with a delivery overdue by `overdueMs` and not claimed: their workflow may have missed a signal. */
export async function endpointsOverdue(db: Db, overdueMs: number, limit = 500): Promise<string[]> {
  // Not pluck: with distinct it selects the column twice (`select distinct "endpoint_id", "endpoint_id"`).
  const rows: Array<{ endpoint_id: string }> = await db('webhook_deliveries')
    .where({ status: 'pending' })
    .andWhere('next_attempt_at', '<', db.raw('now() - make_interval(secs => ?)', [overdueMs / 1000]))
    .andWhere((w) => w.whereNull('lease_until').orWhere('lease_until', '<', db.fn.now()))
    .distinct('endpoint_id')
    .limit(limit);
  return rows.map((r) => r.endpoint_id);
}
