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

/** A grouping set's figures before anything is counted in them. */
export const EMPTY_FIGURES: FigureRow = {
  key: null,
  currency: null,
  evaluated: 0,
  approved: 0,
  declined: 0,
  submitted: 0,
  rescued: 0,
  expired: 0,
  recovered: 0,
  rescueAttempts: 0,
  medianTimeToRescueSeconds: null,
};

export function figureRow(r: Record<string, unknown>): FigureRow {
  return {
    key: r.no_key ? null : (r.key as string),
    currency: r.no_currency ? null : (r.currency as string),
    evaluated: Number(r.evaluated),
    approved: Number(r.approved),
    declined: Number(r.declined),
    submitted: Number(r.submitted),
    rescued: Number(r.rescued),
    expired: Number(r.expired),
    recovered: Number(r.recovered),
    rescueAttempts: Number(r.rescue_attempts),
    medianTimeToRescueSeconds: r.median_seconds === null ? null : Number(r.median_seconds),
  };
}

/**
 * The SQL of each grouping's key, per order: the UTC day of creation (a date: cheaper to group than
 * its text), the decline code it came with, flow, currency; text in byte order ("C": its sorts
 * skip the locale's collation). `out` turns a group's key into the report's text.
 */
export const KEYS: Record<ReportGrouping, { row: string; out: string }> = {
  day: { row: `(created_at at time zone 'UTC')::date`, out: `to_char(k, 'YYYY-MM-DD')` },
  declineCode: { row: `coalesce(decline_code, '') collate "C"`, out: 'k' },
  flow: { row: 'flow collate "C"', out: 'k' },
  currency: { row: 'currency collate "C"', out: 'k' },
};

/**
 * Runs a report's read in a transaction whose sorts may use more memory than a request's
 * default (4 MB spills a median's sort of a hundred thousand rows to disk).
 */
export function withSortMemory<T>(db: Db, read: (trx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (trx) => {
    await trx.raw(`set local work_mem = '32MB'`);
    return read(trx);
  });
}

export function scopeSql(scope: ReportScope): { sql: string; bindings: string[] } {
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
 * A submitted order, in SQL: an async MIT order past its evaluate and not declined by it (what the
 * reports count as a rescue attempted). The rollup's trigger (migration 20261129030000) states
 * the same rule in its own, frozen, words.
 */
export const SUBMITTED_ORDER = `flow = 'ASYNC_MIT' and status_name not in ('Draft', 'Declined')`;

/** A rescued order, in SQL: submitted and completed (the partial index orders_rescued holds these). */
export const RESCUED_ORDER = `${SUBMITTED_ORDER} and completed_at is not null`;

/** An order's time to rescue in seconds, as a float8 (the reports' medians read it, both ways). */
export const RESCUE_SECONDS = `date_part('epoch', completed_at - created_at)`;

/** The median time to rescue, in seconds; without it the grouping sets can be hashed, not sorted. */
const MEDIAN = `percentile_cont(0.5) within group (order by ${RESCUE_SECONDS})
              filter (where submitted and completed_at is not null)`;

/**
 * Every grouping set of a report in one read: (group, currency), (group), (currency) and the
 * total. An order's class is read from its status and timestamps (docs/reports.md):
 * submitted = async MIT past its evaluate and not declined by it; rescued = submitted and
 * completed; expired = submitted with expired_at. The range is on created_at, so the read is the
 * covering index orders_merchant_report (or orders_report across merchants) alone.
 */

export async function reportFigures(
  db: Db,
  range: ReportRange,
  groupBy: ReportGrouping,
  withMedians = true,
): Promise<FigureRow[]> {
  const scope = scopeSql(range);
  const result = await withSortMemory(db, (trx) =>
    trx.raw(
      `with o as (
       select ${KEYS[groupBy].row} as k, currency collate "C" as currency, captured_amount, service_attempts,
              status_name <> 'Draft' as evaluated,
              flow <> 'ASYNC_MIT' and authorization_id is not null as approved,
              status_name = 'Declined' as declined,
              ${SUBMITTED_ORDER} as submitted,
              completed_at, expired_at, created_at
         from orders
        where created_at >= ? and created_at < ?${scope.sql}
     )
     select ${KEYS[groupBy].out} as key, currency, grouping(k) as no_key, grouping(currency) as no_currency,
            count(*) filter (where evaluated)::int as evaluated,
            count(*) filter (where approved)::int as approved,
            count(*) filter (where declined)::int as declined,
            count(*) filter (where submitted)::int as submitted,
            count(*) filter (where submitted and completed_at is not null)::int as rescued,
            count(*) filter (where submitted and expired_at is not null)::int as expired,
            coalesce(sum(captured_amount) filter (where submitted and completed_at is not null), 0)::bigint as recovered,
            coalesce(sum(service_attempts) filter (where submitted and completed_at is not null), 0)::bigint
              as rescue_attempts,
            ${withMedians ? MEDIAN : 'null'} as median_seconds
       from o
      group by grouping sets ((k, currency), (k), (currency), ())`,
      [range.from, range.to, ...scope.bindings],
    ),
  );
  return (result.rows as Array<Record<string, unknown>>).map(figureRow);
}
