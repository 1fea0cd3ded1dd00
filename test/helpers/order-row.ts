import type { Db } from '../../src/db/knex';
import type { OrderRecord } from '../../src/db/tables';

/** The order's read-model row; a missing row fails the test here, naming the order. */
export async function orderRow(db: Db, orderId: string): Promise<OrderRecord> {
  const row = await db('orders').where({ id: orderId }).first();
  if (!row) throw new Error(`order ${orderId} is not in the read model`);
  return row;
}
