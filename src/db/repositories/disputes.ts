import { randomUUID } from 'node:crypto';
import type { Db } from '../knex';
import type { DisputeRecord } from '../tables/disputes';
import type { OrderRow } from './orders';

export type DisputeKind = DisputeRecord['kind'];

/**
 * Chargebacks and early warnings from the card networks. They are recorded with their event in
 * one transaction; they do not change the order's state (the order workflow alone writes that).
 */
export async function recordDispute(
  db: Db,
  order: OrderRow,
  input: { kind: DisputeKind; reason: string; amount: number; at: Date; isTestMode: boolean },
) {
  const id = randomUUID();
  const data =
    input.kind === 'chargeback'
      ? {
          DisputeDateTime: input.at.toISOString(),
          Reason: input.reason,
          TransactionId: id,
          InitialTransactionReference: order.authorization_id,
          Amount: input.amount,
          Currency: order.currency,
        }
      : {
          WarningDateTime: input.at.toISOString(),
          Reason: input.reason,
          TransactionId: id,
          InitialTransactionReference: order.authorization_id,
          Amount: input.amount,
          Currency: order.currency,
        };
  await db.transaction(async (trx) => {
    await trx('disputes').insert({
      id,
      order_id: order.id,
      merchant_id: order.merchant_id,
      kind: input.kind,
      status: 'received',
      reason: input.reason,
      amount: input.amount,
      currency: order.currency,
      dispute_at: input.at,
    });
    await insertDisputeEvent(
      trx,
      order,
      input.kind === 'chargeback' ? 'payment.chargeback.received' : 'payment.early_warning.received',
      data,
      input,
    );
  });
  return { id, data };
}

/** A received chargeback decided in the merchant's favour. */
export async function reverseChargeback(db: Db, id: string, at: Date, isTestMode: boolean) {
  return db.transaction(async (trx) => {
    const dispute = await trx('disputes').where({ id, kind: 'chargeback' }).forUpdate().first();
    if (!dispute) return undefined;
    if (dispute.status !== 'received') return { refused: true as const };
    await trx('disputes').where({ id }).update({ status: 'reversed', reversed_at: at });
    const order = await trx('orders').where({ id: dispute.order_id }).first();
    // The foreign key keeps the order; without it there is nothing to announce the reversal for.
    if (!order) throw new Error(`dispute ${id}: order ${dispute.order_id} not found`);
    const data = {
      DisputeDateTime: dispute.dispute_at.toISOString(),
      ReversalDateTime: at.toISOString(),
      Reason: dispute.reason,
      TransactionId: dispute.id,
      InitialTransactionReference: order.authorization_id,
      Amount: dispute.amount,
      Currency: dispute.currency,
    };
    await insertDisputeEvent(trx, order, 'payment.chargeback.reversed', data, { at, isTestMode });
    return { refused: false as const, data };
  });
}

async function insertDisputeEvent(
  trx: Db,
  order: {
    id: string;
    merchant_id: string;
    partner_id: string;
    external_order_id: string;
    confirmation_id: string | null;
  },
  name: string,
  data: unknown,
  input: { at: Date; isTestMode: boolean },
): Promise<void> {
  await trx('events').insert({
    id: randomUUID(),
    name,
    merchant_id: order.merchant_id,
    partner_id: order.partner_id,
    order_id: order.id,
    external_order_id: order.external_order_id,
    confirmation_id: order.confirmation_id,
    data: JSON.stringify(data),
    is_test_mode: input.isTestMode,
    occurred_at: input.at,
  });
}
