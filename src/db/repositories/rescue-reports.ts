import type { Db } from '../knex';

/** What a rescue report groups orders by (docs/reports.md). */
export type ReportGrouping = 'day' | 'declineCode' | 'flow' | 'currency';

/** Whose orders a report counts: one merchant's, or (the operator) any, a partner's or a merchant's. */
export interface ReportScope {
  merchantId?: string;
  partnerId?: string;
}

/** Orders created in [from, to) in the scope. */
export interface ReportRange extends ReportScope {
  from: Date;
  to: Date;
}

/**
 * The counts of one grouping set: a group and currency, a group, a currency, or all (null where
 * the set does not split by it). Definitions: docs/reports.md.
 */
export interface FigureRow {
  key: string | null;
  currency: string | null;
  evaluated: number;
  approved: number;
  declined: number;
  submitted: number;
  rescued: number;
  expired: number;
  /** Captured minor units of the rescued orders (one currency's rows only are summed by callers). */
  recovered: number;
  /** The charge attempts the rescued orders took (service_attempts: their sale/authorization rows). */
  rescueAttempts: number;
  medianTimeToRescueSeconds: number | null;
}

/** The SQL of each grouping's key: the UTC day of creation, the decline code it came with, flow, currency. */
const KEYS: Record<ReportGrouping, string> = {
  day: `to_char(created_at at time zone 'UTC', 'YYYY-MM-DD')`,
  declineCode: `coalesce(decline_code, '')`,
  flow: 'flow',
  currency: 'currency',
};

function scopeSql(scope: ReportScope): { sql: string; bindings: string[] } {
  const parts: string[] = [];
  const bindings: string[] = [];
  if (scope.merchantId) {
    parts.push('merchant_id = ?');
    bindings.push(scope.merchantId);
  }
  if (scope.partnerId) {
    parts.push('partner_id = ?');
    bindings.push(scope.partnerId);
  }
  return { sql: parts.map((p) => ` and ${p}`).join(''), bindings };
}

/**
 * Every grouping set of a report in one read: (group, currency), (group), (currency) and the
 * total. An order's class is read from its status and timestamps (docs/reports.md):
 * submitted = async MIT past its evaluate and not declined by it; rescued = submitted and
 * completed; expired = submitted with expired_at. The range is on created_at, so the read is the
 * covering index orders_merchant_report (or orders_report across merchants) alone.
 */
export async function reportFigures(db: Db, range: ReportRange, groupBy: ReportGrouping): Promise<FigureRow[]> {
  const scope = scopeSql(range);
  const result = await db.raw(
    `with o as (
       select ${KEYS[groupBy]} as key, currency, captured_amount, service_attempts,
              status_name <> 'Draft' as evaluated,
              flow <> 'ASYNC_MIT' and authorization_id is not null as approved,
              status_name = 'Declined' as declined,
              flow = 'ASYNC_MIT' and status_name not in ('Draft', 'Declined') as submitted,
              completed_at, expired_at, created_at
         from orders
        where created_at >= ? and created_at < ?${scope.sql}
     )
     select key, currency, grouping(key) as no_key, grouping(currency) as no_currency,
            count(*) filter (where evaluated)::int as evaluated,
            count(*) filter (where approved)::int as approved,
            count(*) filter (where declined)::int as declined,
            count(*) filter (where submitted)::int as submitted,
            count(*) filter (where submitted and completed_at is not null)::int as rescued,
            count(*) filter (where submitted and expired_at is not null)::int as expired,
            coalesce(sum(captured_amount) filter (where submitted and completed_at is not null), 0)::bigint as recovered,
            coalesce(sum(service_attempts) filter (where submitted and completed_at is not null), 0)::bigint
              as rescue_attempts,
            percentile_cont(0.5) within group (order by extract(epoch from completed_at - created_at))
              filter (where submitted and completed_at is not null) as median_seconds
       from o
      group by grouping sets ((key, currency), (key), (currency), ())`,
    [range.from, range.to, ...scope.bindings],
  );
  return (result.rows as Array<Record<string, unknown>>).map((r) => ({
    key: r.no_key ? null : (r.key as string),
    currency: r.no_currency ? null : (r.currency as string),
    evaluated: r.evaluated as number,
    approved: r.approved as number,
    declined: r.declined as number,
    submitted: r.submitted as number,
    rescued: r.rescued as number,
    expired: r.expired as number,
    recovered: Number(r.recovered),
    rescueAttempts: Number(r.rescue_attempts),
    medianTimeToRescueSeconds: r.median_seconds === null ? null : Number(r.median_seconds),
  }));
}

/** An async MIT rescue still running (Processing) and when its next retry is due. */
export interface OpenRescueRow {
  orderId: string;
  merchantId: string;
  externalOrderId: string;
  amount: number;
  currency: string;
  attempts: number;
  nextAttemptAt: Date;
}

/**
 * The open rescues of the range, soonest next attempt first, at most `limit`, and how many there
 * are. The next attempt is the retry schedule's first time (`offsetsMs` from creation, the
 * workflow's base) after the order's last write (each retry writes it) and before its window's
 * end, else the window's end, when the rescue closes. A card's retry budget may hold a retry
 * later than that (docs/network-rules.md): the read model does not keep the hold.
 */
export async function openRescues(
  db: Db,
  range: ReportRange,
  offsetsMs: readonly number[],
  limit: number,
): Promise<{ count: number; rows: OpenRescueRow[] }> {
  const scope = scopeSql(range);
  const result = await db.raw(
    `with open as (
       select id, merchant_id, external_order_id, amount, currency, service_attempts, window_ends_at,
              (select min(created_at + ms * interval '1 millisecond')
                 from unnest(?::bigint[]) as offsets(ms)
                where created_at + ms * interval '1 millisecond' > updated_at
                  and created_at + ms * interval '1 millisecond' < window_ends_at) as next_retry
         from orders
        where status_name = 'Processing' and created_at >= ? and created_at < ?${scope.sql}
     )
     select id, merchant_id, external_order_id, amount, currency, service_attempts,
            coalesce(next_retry, window_ends_at) as next_attempt_at, count(*) over () as total
       from open
      order by next_attempt_at, id
      limit ?`,
    [`{${offsetsMs.join(',')}}`, range.from, range.to, ...scope.bindings, limit],
  );
  const rows = result.rows as Array<Record<string, unknown>>;
  return {
    count: rows.length ? Number(rows[0]?.total) : 0,
    rows: rows.map((r) => ({
      orderId: r.id as string,
      merchantId: r.merchant_id as string,
      externalOrderId: r.external_order_id as string,
      amount: Number(r.amount),
      currency: r.currency as string,
      attempts: r.service_attempts as number,
      nextAttemptAt: r.next_attempt_at as Date,
    })),
  };
}
