import type { Db } from '../knex';
import {
  type FigureRow,
  figureRow,
  KEYS,
  type ReportGrouping,
  type ReportRange,
  reportFigures,
  scopeSql,
  withSortMemory,
} from './rescue-reports';

/**
 * The operator's rescue report across merchants (docs/reports.md, "How it stays fast"): the
 * rollup kept by a trigger on orders (migration 20261129020000) for whole UTC days, a scan of the
 * partial first and last days, and the medians from the rescued orders alone.
 */

/** Which grouping sets the medians are wanted of: the JSON's (groups, total) or the CSV's (per currency). */
export type MedianSets = 'groups' | 'currencies';
/** One grouping set of the medians: whether it groups by the report's key, by currency. */
interface MedianSet {
  byKey: boolean;
  byCurrency: boolean;
}
const MEDIAN_SETS: Record<MedianSets, MedianSet[]> = {
  groups: [
    { byKey: true, byCurrency: false },
    { byKey: false, byCurrency: false },
  ],
  currencies: [
    { byKey: true, byCurrency: true },
    { byKey: false, byCurrency: true },
  ],
};

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

/**
 * The rollup's sums over whole UTC days [fromDay, toDay) (migration 20261129020000); no medians.
 * Its rows (partner × day × key × currency) are first summed by key and currency in one hashed
 * pass, so the grouping sets sort a few hundred rows, not tens of thousands.
 */
async function rollupFigures(
  db: Db,
  range: { partnerId?: string; fromDay: Date; toDay: Date },
  groupBy: ReportGrouping,
): Promise<FigureRow[]> {
  const { dimension, key } = ROLLUP_KEYS[groupBy];
  const partner = range.partnerId ? ' and partner_id = ?' : '';
  const result = await db.raw(
    `with r as (
       select ${key} as key, currency, sum(evaluated) as evaluated, sum(approved) as approved,
              sum(declined) as declined, sum(submitted) as submitted, sum(rescued) as rescued,
              sum(expired) as expired, sum(recovered) as recovered, sum(rescue_attempts) as rescue_attempts
         from rescue_report_rollup
        where day >= ?::date and day < ?::date and dimension = ?${partner}
        group by 1, 2
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

/**
 * The median time to rescue of one grouping set, from the rescued orders alone (index
 * orders_rescued). Each set is its own query: a median sorts every rescue of the range, and two
 * sorts on two connections run on two cores at once.
 */
async function rescueMedians(
  db: Db,
  range: ReportRange,
  groupBy: ReportGrouping,
  set: MedianSet,
): Promise<FigureRow[]> {
  const scope = scopeSql(range);
  const groupedBy = [...(set.byKey ? ['k'] : []), ...(set.byCurrency ? ['currency'] : [])];
  const result = await withSortMemory(db, (trx) =>
    trx.raw(
      `with o as (
       select ${KEYS[groupBy].row} as k, currency collate "C" as currency,
              extract(epoch from completed_at - created_at) as seconds
         from orders
        where flow = 'ASYNC_MIT' and completed_at is not null and status_name not in ('Draft', 'Declined')
          and created_at >= ? and created_at < ?${scope.sql}
     )
     select ${set.byKey ? `${KEYS[groupBy].out} as key, 0` : 'null as key, 1'} as no_key,
            ${set.byCurrency ? 'currency, 0' : 'null as currency, 1'} as no_currency,
            0 as evaluated, 0 as approved, 0 as declined, 0 as submitted, 0 as rescued, 0 as expired,
            0 as recovered, 0 as rescue_attempts,
            percentile_cont(0.5) within group (order by seconds) as median_seconds
       from o
      ${groupedBy.length ? `group by ${groupedBy.join(', ')}` : ''}`,
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
  const [days, ...rest] = await Promise.all([
    rollupFigures(db, { partnerId: range.partnerId, fromDay, toDay }, groupBy),
    ...MEDIAN_SETS[medianSets].map((set) => rescueMedians(db, range, groupBy, set)),
    ...edges.map((edge) => reportFigures(db, edge, groupBy, false)),
  ]);
  const medians = rest.slice(0, MEDIAN_SETS[medianSets].length).flat();
  return merged([days, ...rest.slice(MEDIAN_SETS[medianSets].length)], medians);
}
