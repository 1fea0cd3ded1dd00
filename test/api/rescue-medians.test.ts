import { seedReportData } from '../../scripts/bench/reports-seed';
import { type MedianSets, rescueMedians } from '../../src/db/repositories/rescue-medians';
import { KEYS, RESCUE_SECONDS, RESCUED_ORDER, type ReportGrouping } from '../../src/db/repositories/rescue-reports';
import { createTestDatabase, type TestDatabase } from '../helpers/database';

/**
 * The operator report's two-pass medians (src/db/repositories/rescue-medians.ts) against
 * Postgres's own percentile_cont(0.5) over the same rescues: every grouping, both sets of
 * grouping sets, across all partners and for one, over whole and partial days, on the bench's
 * seed (rescue times on the retry schedule: many equal values) with a third of the times spread
 * at random (all distinct, odd and even counts, neighbouring ranks in different buckets).
 */
describe('the operator report’s medians (real Postgres)', () => {
  let database: TestDatabase;
  let partnerId: string;
  beforeAll(async () => {
    database = await createTestDatabase();
    ({ partnerId } = await seedReportData(database.url, 6_000));
    await database.db.raw(
      `update orders set completed_at = created_at + random() * interval '20 days' where ${RESCUED_ORDER} and random() < 0.33`,
    );
  }, 120_000);
  afterAll(async () => {
    await database?.drop();
  });

  /** percentile_cont over the same rows, by the same grouping sets. */
  async function reference(groupBy: ReportGrouping, sets: MedianSets, from: Date, to: Date, partner?: string) {
    const grouping = sets === 'groups' ? '(k), ()' : '(k, currency), (currency)';
    const result = await database.db.raw(
      `select ${KEYS[groupBy].out} as key, grouping(k) as no_key, ${sets === 'groups' ? 'null' : 'currency'} as currency,
              percentile_cont(0.5) within group (order by ${RESCUE_SECONDS}) as median
         from (select ${KEYS[groupBy].row} as k, currency collate "C" as currency, completed_at, created_at
                 from orders where ${RESCUED_ORDER} and created_at >= ? and created_at < ?${partner ? ' and partner_id = ?' : ''}) o
        group by grouping sets (${grouping})`,
      [from, to, ...(partner ? [partner] : [])],
    );
    return (result.rows as Array<{ key: string; no_key: number; currency: string | null; median: number }>)
      .map((r) => [r.no_key ? null : r.key, r.currency, r.median])
      .sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
  }

  const now = Date.now();
  const ranges = [
    { name: '90 whole days', from: new Date(Date.UTC(2000, 0, 1)), to: new Date(now + 86_400_000) },
    { name: '30 days from mid-day', from: new Date(now - 30 * 86_400_000 + 3_600_000 * 7.5), to: new Date(now) },
  ];
  for (const groupBy of ['day', 'declineCode', 'flow', 'currency'] as const) {
    for (const sets of ['groups', 'currencies'] as const) {
      for (const range of ranges) {
        it(`by ${groupBy}, ${sets}, ${range.name}: percentile_cont's value, for all and for one partner`, async () => {
          for (const partner of [undefined, partnerId]) {
            const ours = (
              await rescueMedians(database.db, { from: range.from, to: range.to, partnerId: partner }, groupBy, sets)
            )
              .map((r) => [r.key, r.currency, r.medianTimeToRescueSeconds])
              .sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
            const theirs = await reference(groupBy, sets, range.from, range.to, partner);
            expect(theirs.length).toBeGreaterThan(1);
            expect(ours).toEqual(theirs);
          }
        });
      }
    }
  }
});
