import type { Db } from '../knex';
import { type MedianSets, rescueMedians } from './rescue-medians';
import { type FigureRow, figureRow, type ReportGrouping, type ReportRange, reportFigures } from './rescue-reports';

/**
 * The operator's rescue report across merchants (docs/reports.md, "How it stays fast"): the
 * rollup kept by a trigger on orders (migration 20261129030000) for whole UTC days, a scan of the
 * partial first and last days, and the medians from the rescued orders alone.
 */

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
 * The rollup's sums over whole UTC days [fromDay, toDay) (migration 20261129030000); no medians.
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
    ...edges.map((edge) => reportFigures(db, edge, groupBy, false)),
  ]);
  return merged([days, ...edgeRows], medians);
}
