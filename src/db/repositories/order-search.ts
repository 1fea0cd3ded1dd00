import type { Flow } from '../../domain/orders/status';
import type { Db } from '../knex';
import type { OrderRow } from './orders';

/** Where a page of GET /v1/orders ends: the last order's creation time and id (its cursor). */
export interface OrderPosition {
  createdAt: Date;
  id: string;
}

/** The filters of GET /v1/orders; absent ones do not filter. */
export interface OrderSearch {
  merchantId: string;
  statuses?: number[];
  /** As the order lookup shows them: `EXPIRED` is an order whose rescue window ended (orderView). */
  outcomes?: string[];
  flows?: Flow[];
  /** Inclusive. */
  createdFrom?: Date;
  /** Exclusive. */
  createdTo?: Date;
  externalOrderId?: string;
  /** Orders older than this one (the previous page's last). */
  after?: OrderPosition;
  limit: number;
}

/**
 * The query of one page, newest first, one order more than asked to tell whether more follow.
 * Its order and cursor are the index orders_merchant_newest_first (migration 20261127010000), so
 * a page reads about `limit` index entries however many orders the merchant has.
 */
export function orderSearchQuery(db: Db, search: OrderSearch) {
  const q = db('orders').where('merchant_id', search.merchantId);
  if (search.statuses) q.whereIn('status', search.statuses);
  if (search.flows) q.whereIn('flow', search.flows);
  if (search.outcomes) {
    const stored = search.outcomes.filter((o) => o !== 'EXPIRED');
    const expired = search.outcomes.includes('EXPIRED');
    // orderView shows EXPIRED in place of the stored outcome once expired_at is set.
    q.where((w) => {
      if (stored.length) w.orWhere((s) => s.whereIn('outcome', stored).whereNull('expired_at'));
      if (expired) w.orWhereNotNull('expired_at');
    });
  }
  if (search.createdFrom) q.where('created_at', '>=', search.createdFrom);
  if (search.createdTo) q.where('created_at', '<', search.createdTo);
  if (search.externalOrderId !== undefined) q.where('external_order_id', search.externalOrderId);
  if (search.after) {
    q.whereRaw('(created_at, id) < (?::timestamptz, ?::uuid)', [search.after.createdAt, search.after.id]);
  }
  return q
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(search.limit + 1);
}

/** One page of the merchant's orders, newest first, and whether older ones follow. */
export async function searchOrders(db: Db, search: OrderSearch): Promise<{ rows: OrderRow[]; hasMore: boolean }> {
  const fetched = await orderSearchQuery(db, search);
  return { rows: fetched.slice(0, search.limit), hasMore: fetched.length > search.limit };
}
