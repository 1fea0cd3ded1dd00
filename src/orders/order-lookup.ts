import type { Db } from '../db/knex';
import { readCardRetryBudget } from '../db/repositories/card-retry-budget';
import { type OrderRow, orderViewOf } from '../db/repositories/orders';
import type { NetworkRegion } from '../domain/network-rules';

/**
 * The body of GET /v1/orders/{id} (and its deprecated alias POST /v1/outcome): the order, its
 * processor calls, and the card's retry budget at the merchant across all its orders, as the order
 * workflow reads it before a charge (docs/network-rules.md).
 */
export async function orderLookup(db: Db, order: OrderRow, now: Date, region: NetworkRegion) {
  const [view, budget] = await Promise.all([
    orderViewOf(db, order),
    readCardRetryBudget(db, order.merchant_id, order.card_token, region, now),
  ]);
  const retryBudget = budget ? { used: budget.used, limit: budget.limit, resetsAt: budget.resetsAt } : null;
  return { ...view, retryBudget };
}
