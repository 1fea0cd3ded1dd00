import type { Db } from '../knex';
import {
  EMPTY_FIGURES,
  type FigureRow,
  KEYS,
  RESCUE_SECONDS,
  RESCUED_ORDER,
  type ReportGrouping,
  type ReportRange,
  scopeSql,
} from './rescue-reports';

/**
 * The exact median time to rescue of the operator's report, without sorting every rescue of the
 * range (docs/reports.md, "How it stays fast"). Two hashed passes over the rescued orders (index
 * orders_rescued), in one snapshot, each grouped by the finest cell (key, or key and currency):
 *
 * 1. a histogram of each cell's times to rescue in buckets 1% wide on a log scale; a coarser
 *    group's (the total, a currency) is the sum of its cells'. It tells the bucket each of the
 *    group's median ranks falls in;
 * 2. the distinct times, with their counts, of only those buckets, which give the values at the
 *    median ranks: the value `percentile_cont(0.5)` gives (the merchant's scan).
 */

/** Which grouping sets the medians are wanted of: the JSON's (groups, total) or the CSV's (per currency). */
export type MedianSets = 'groups' | 'currencies';

const BUCKET = `floor(ln(greatest(${RESCUE_SECONDS}, 0) + 1) * 100)::int`;

interface Cell {
  key: string;
  currency: string | null;
  b: number;
  n: number;
}

/** The groups a cell counts in: its key's (and currency's), and the total (or its currency's). */
const groupsOf = (cell: Cell) => [JSON.stringify([cell.key, cell.currency]), JSON.stringify([null, cell.currency])];

/** The 0-based ranks percentile_cont(0.5) reads of n sorted values. */
const medianRanks = (n: number): [number, number] => [Math.floor((n - 1) / 2), Math.ceil((n - 1) / 2)];

/** Each group's histogram, bucket by bucket in order, summed from its cells. */
function histograms(cells: Cell[]): Map<string, Map<number, number>> {
  const groups = new Map<string, Map<number, number>>();
  for (const cell of cells) {
    for (const id of groupsOf(cell)) {
      const buckets = groups.get(id) ?? new Map<number, number>();
      buckets.set(cell.b, (buckets.get(cell.b) ?? 0) + cell.n);
      groups.set(id, buckets);
    }
  }
  return groups;
}

/** The buckets holding a group's median ranks, and how many of its rescues lie below the first. */
function medianBuckets(buckets: Map<number, number>) {
  const total = [...buckets.values()].reduce((a, n) => a + n, 0);
  const ranks = medianRanks(total);
  const wanted = { total, below: 0, buckets: new Set<number>() };
  let below = 0;
  for (const [b, n] of [...buckets].sort(([x], [y]) => x - y)) {
    if (ranks.some((r) => r >= below && r < below + n)) {
      if (!wanted.buckets.size) wanted.below = below;
      wanted.buckets.add(b);
    }
    below += n;
  }
  return wanted;
}

export async function rescueMedians(
  db: Db,
  range: ReportRange,
  groupBy: ReportGrouping,
  sets: MedianSets,
): Promise<FigureRow[]> {
  const scope = scopeSql(range);
  const cell = `${KEYS[groupBy].out} as key, ${sets === 'currencies' ? 'currency' : 'null'} as currency`;
  const cellBy = `k${sets === 'currencies' ? ', currency' : ''}, b`;
  const rescued = `select ${KEYS[groupBy].row} as k, currency collate "C" as currency, ${RESCUE_SECONDS} as seconds,
                          ${BUCKET} as b
         from orders
        where ${RESCUED_ORDER}
          and created_at >= ? and created_at < ?${scope.sql}`;
  const bindings = [range.from, range.to, ...scope.bindings];

  return db.transaction(
    async (trx) => {
      const cells = (
        await trx.raw(
          `with o as (${rescued}) select ${cell}, b, count(*)::int as n from o group by ${cellBy}`,
          bindings,
        )
      ).rows as Cell[];
      const wanted = new Map([...histograms(cells)].map(([id, buckets]) => [id, medianBuckets(buckets)]));
      const buckets = [...new Set([...wanted.values()].flatMap((w) => [...w.buckets]))];
      const values = buckets.length
        ? ((
            await trx.raw(
              `with o as (${rescued}) select ${cell}, b, seconds, count(*)::int as n from o
                where b = any(?::int[]) group by ${cellBy}, seconds order by seconds`,
              [...bindings, buckets],
            )
          ).rows as Array<Cell & { seconds: number }>)
        : [];
      // Walk each group's values in its median buckets in order, counting from the rescues below them.
      const seen = new Map<string, number>();
      const picked = new Map<string, number[]>();
      for (const value of values) {
        for (const id of groupsOf(value)) {
          const want = wanted.get(id);
          if (!want?.buckets.has(value.b)) continue;
          const start = want.below + (seen.get(id) ?? 0);
          seen.set(id, (seen.get(id) ?? 0) + value.n);
          for (const rank of medianRanks(want.total)) {
            if (rank >= start && rank < start + value.n) picked.set(id, [...(picked.get(id) ?? []), value.seconds]);
          }
        }
      }
      return [...wanted.keys()].map((id) => {
        const [key, currency] = JSON.parse(id) as [string | null, string | null];
        const [low, high] = picked.get(id) ?? [];
        const median = low !== undefined && high !== undefined ? low + (high - low) * 0.5 : null;
        return { ...EMPTY_FIGURES, key, currency, medianTimeToRescueSeconds: median };
      });
    },
    { isolationLevel: 'repeatable read', readOnly: true },
  );
}
