import type { Db } from '../knex';
import { type ReportRange, scopeSql } from './rescue-reports';

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
  const schedule = `{${[...offsetsMs].sort((x, y) => x - y).join(',')}}`;
  // width_bucket counts the offsets (ascending) at or before the time since creation of the last
  // write: the next one is the schedule's next retry. A binary search per order, in C.
  const result = await db.raw(
    `with open as (
       select id, merchant_id, external_order_id, amount, currency, service_attempts, window_ends_at,
              created_at + (?::float8[])[width_bucket(extract(epoch from updated_at - created_at) * 1000, ?::float8[]) + 1]
                * interval '1 millisecond' as next_retry
         from orders
        where status_name = 'Processing' and created_at >= ? and created_at < ?${scope.sql}
     )
     select id, merchant_id, external_order_id, amount, currency, service_attempts,
            case when next_retry < window_ends_at then next_retry else window_ends_at end as next_attempt_at,
            count(*) over () as total
       from open
      order by next_attempt_at, id
      limit ?`,
    [schedule, schedule, range.from, range.to, ...scope.bindings, limit],
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
