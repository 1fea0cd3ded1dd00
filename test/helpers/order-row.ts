import type { Db } from '../../src/db/knex';
import type { OrderRecord } from '../../src/db/tables';

/** The order's read-model row; a missing row fails the test here, naming the order. */
export async function orderRow(db: Db, orderId: string): Promise<OrderRecord> {
  const row = await db('orders').where({ id: orderId }).first();
  if (!row) throw new Error(`order ${orderId} is not in the read model`);
  return row;
}

/**
 * The processor idempotency key of an order's call: its charges-ledger row's id (kind: sale,
 * authorization, capture, void, reversal; attempt: the charge it is or acts on). A missing row fails here.
 */
export async function chargeKey(db: Db, orderId: string, kind: string, attempt: number): Promise<string> {
  const row = await db('charges').where({ order_id: orderId, attempt }).where('kind', kind).first('id');
  if (!row) throw new Error(`order ${orderId} has no ${kind} ${attempt} in the charges ledger`);
  return row.id;
}
