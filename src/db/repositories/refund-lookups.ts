import type { Db } from '../knex';
import type { RefundRecord } from '../tables/refunds';

/** The reads of the refunds ledger (its writes, by the refund workflow: ./refunds.ts). */

/** A refund of the order's, by its id. */
export async function findRefund(db: Db, orderId: string, refundId: string): Promise<RefundRecord | undefined> {
  return db('refunds').where({ id: refundId, order_id: orderId }).first();
}

/**
 * Whether the refund is in the ledger: read by the API when the refund's workflow did not answer
 * by its deadline, to tell "may still complete" (reserved: the processor refund goes on) from
 * "never will" (not reserved, and reserveRefund turns it away from now on).
 */
export async function refundReserved(db: Db, orderId: string, refundId: string): Promise<boolean> {
  return db.transaction(async (trx) => {
    await trx('orders').where({ id: orderId }).forShare().first('id');
    return !!(await trx('refunds').where({ id: refundId, order_id: orderId }).first('id'));
  });
}

/** When a refund was reserved, just before the processor was first asked it; undefined if never. */
export async function refundReservedAt(db: Db, refundId: string): Promise<Date | undefined> {
  return (await db('refunds').where({ id: refundId }).first('created_at'))?.created_at;
}
