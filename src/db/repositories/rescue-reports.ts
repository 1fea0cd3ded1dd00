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

function figureRow(r: Record<string, unknown>): FigureRow {
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
const KEYS: Record<ReportGrouping, { row: string; out: string }> = {
  day: { row: `(created_at at time zone 'UTC')::date`, out: `to_char(k, 'YYYY-MM-DD')` },
  declineCode: { row: `coalesce(decline_code, '') collate "C"`, out: 'k' },
  flow: { row: 'flow collate "C"', out: 'k' },
  currency: { row: 'currency collate "C"', out: 'k' },
};

/** Which grouping sets the medians are wanted of: the JSON's (groups, total) or the CSV's (per currency). */
export type MedianSets = 'groups' | 'currencies';
const MEDIAN_SETS: Record<MedianSets, string> = {
  groups: '(k), ()',
  currencies: '(k, currency), (currency)',
};

/**
 * Runs a report's read in a transaction whose sorts may use more memory than a request's
 * default (4 MB spills a median's sort of a hundred thousand rows to disk).
 */
function withSortMemory<T>(db: Db, read: (trx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (trx) => {
    await trx.raw(`set local work_mem = '32MB'`);
    return read(trx);
  });
}

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
  const result = await withSortMemory(db, (trx) =>
    trx.raw(
      `with o as (
       select ${KEYS[groupBy].row} as k, currency collate "C" as currency, captured_amount, service_attempts,
              status_name <> 'Draft' as evaluated,
              flow <> 'ASYNC_MIT' and authorization_id is not null as approved,
              status_name = 'Declined' as declined,
              flow = 'ASYNC_MIT' and status_name not in ('Draft', 'Declined') as submitted,
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
            percentile_cont(0.5) within group (order by extract(epoch from completed_at - created_at))
              filter (where submitted and completed_at is not null) as median_seconds
       from o
      group by grouping sets ((k, currency), (k), (currency), ())`,
      [range.from, range.to, ...scope.bindings],
    ),
  );
  return (result.rows as Array<Record<string, unknown>>).map(figureRow);
}

const DAY_MS = 86_400_000;
const startOfDay = (d: Date) => new Date(Math.floor(d.getTime() / DAY_MS) * DAY_MS);
const nextDayStart = (d: Date) => new Date(Math.ceil(d.getTime() / DAY_MS) * DAY_MS);

/** The rollup's key of each grouping: day and currency come from the flow dimension's rows. */
const ROLLUP_KEYS: Record<ReportGrouping, { dimension: 'flow' | 'declineCode'; key: string }> = {
  day: { dimension: 'flow', key: `to_char(day, 'YYYY-MM-DD')` },
  declineCode: { dimension: 'declineCode', key: 'key' },
  flow: { dimension: 'flow', key: 'key' },
  currency: { dimension: 'flow', key: 'currency' },
};

/** The rollup's sums over whole UTC days [fromDay, toDay) (migration 20261129020000); no medians. */
async function rollupFigures(
  db: Db,
  range: { partnerId?: string; fromDay: Date; toDay: Date },
  groupBy: ReportGrouping,
): Promise<FigureRow[]> {
  const { dimension, key } = ROLLUP_KEYS[groupBy];
  const partner = range.partnerId ? ' and partner_id = ?' : '';
  const result = await db.raw(
    `with r as (
       select ${key} as key, currency, evaluated, approved, declined, submitted, rescued, expired, recovered,
              rescue_attempts
         from rescue_report_rollup
        where day >= ?::date and day < ?::date and dimension = ?${partner}
     )
     select key, currency, grouping(key) as no_key, grouping(currency) as no_currency,
            sum(evaluated)::int as evaluated, sum(approved)::int as approved, sum(declined)::int as declined,
            sum(submitted)::int as submitted, sum(rescued)::int as rescued, sum(expired)::int as expired,
            sum(recovered)::bigint as recovered, sum(rescue_attempts)::bigint as rescue_attempts,
            null as median_seconds
       from r
      group by grouping sets ((key, currency), (key), (currency), ())
     having sum(evaluated) <> 0 or count(*) = 0`,
    [
      range.fromDay.toISOString().slice(0, 10),
      range.toDay.toISOString().slice(0, 10),
      dimension,
      ...(range.partnerId ? [range.partnerId] : []),
    ],
  );
  return (result.rows as Array<Record<string, unknown>>).map(figureRow);
}

/** The median time to rescue of each grouping set, from the rescued orders alone (index orders_rescued). */
async function rescueMedians(
  db: Db,
  range: ReportRange,
  groupBy: ReportGrouping,
  sets: MedianSets,
): Promise<FigureRow[]> {
  const scope = scopeSql(range);
  const result = await withSortMemory(db, (trx) =>
    trx.raw(
      `with o as (
       select ${KEYS[groupBy].row} as k, currency collate "C" as currency,
              extract(epoch from completed_at - created_at) as seconds
         from orders
        where flow = 'ASYNC_MIT' and completed_at is not null and status_name not in ('Draft', 'Declined')
          and created_at >= ? and created_at < ?${scope.sql}
     )
     select ${KEYS[groupBy].out} as key, ${sets === 'groups' ? 'null as currency, 1 as no_currency' : 'currency, grouping(currency) as no_currency'},
            grouping(k) as no_key, 0 as evaluated, 0 as approved, 0 as declined, 0 as submitted, 0 as rescued, 0 as expired,
            0 as recovered, 0 as rescue_attempts,
            percentile_cont(0.5) within group (order by seconds) as median_seconds
       from o
      group by grouping sets (${MEDIAN_SETS[sets]})`,
      [range.from, range.to, ...scope.bindings],
    ),
  );
  return (result.rows as Array<Record<string, unknown>>).map(figureRow);
}

const identity = (r: FigureRow) => JSON.stringify([r.key, r.currency]);

/** Sums the counts of rows of the same grouping set; the medians are taken from `medians`. */
function merged(parts: FigureRow[][], medians: FigureRow[]): FigureRow[] {
  const sums = new Map<string, FigureRow>();
  for (const row of parts.flat()) {
    const id = identity(row);
    const sum = sums.get(id);
    if (!sum) {
      sums.set(id, { ...row, medianTimeToRescueSeconds: null });
      continue;
    }
    for (const k of ['evaluated', 'approved', 'declined', 'submitted', 'rescued', 'expired'] as const) sum[k] += row[k];
    sum.recovered += row.recovered;
    sum.rescueAttempts += row.rescueAttempts;
  }
  const median = new Map(medians.map((m) => [identity(m), m.medianTimeToRescueSeconds]));
  return [...sums.values()]
    .filter((r) => r.evaluated > 0 || (r.key === null && r.currency === null))
    .map((r) => ({ ...r, medianTimeToRescueSeconds: median.get(identity(r)) ?? null }));
}

/**
 * The operator's figures without a merchant filter: the rollup for the whole UTC days of the
 * range, a scan of the orders for its partial first and last days (indexed by creation time),
 * and the medians from the rescued orders, read in parallel and added up. A merchant's own
 * orders are few enough to scan (reportFigures), exact and always current.
 */
export async function rolledUpReportFigures(
  db: Db,
  range: ReportRange,
  groupBy: ReportGrouping,
  medianSets: MedianSets,
): Promise<FigureRow[]> {
  const fromDay = nextDayStart(range.from);
  const toDay = startOfDay(range.to);
  if (fromDay >= toDay) return reportFigures(db, range, groupBy);
  const edges = [
    ...(range.from < fromDay ? [{ ...range, to: fromDay }] : []),
    ...(toDay < range.to ? [{ ...range, from: toDay }] : []),
  ];
  const [days, medians, ...edgeRows] = await Promise.all([
    rollupFigures(db, { partnerId: range.partnerId, fromDay, toDay }, groupBy),
    rescueMedians(db, range, groupBy, medianSets),
    ...edges.map((edge) => reportFigures(db, edge, groupBy)),
  ]);
  return merged([days, ...edgeRows], medians);
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
