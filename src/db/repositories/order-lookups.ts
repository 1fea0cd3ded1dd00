import type { Db } from '../knex';
import type { OrderRecord } from '../tables';

/**
 * Orders found without the merchant's credential: by the back office (its operators see every
 * merchant) and by the challenge component (the orderSessionKey is what authorizes it). A
 * merchant's own lookups are in orders.ts.
 */

/** The order with this id, whichever merchant's. */
export async function findOrderById(db: Db, orderId: string): Promise<OrderRecord | undefined> {
  return db('orders').where({ id: orderId }).first();
}

/** The order with this orderSessionKey (unique: the index orders_session_key). */
export async function findOrderBySessionKey(db: Db, orderSessionKey: string): Promise<OrderRecord | undefined> {
  return db('orders').where({ order_session_key: orderSessionKey }).first();
}
