import type { CommandRefusal, RefundRequest } from '../../domain/orders/contracts';
import type { RefundedEventData } from '../../domain/orders/events';
import { ORDER_STATUS, type OrderStatusName } from '../../domain/orders/status';
import { isRefundable, statusAfterRefund } from '../../domain/orders/transitions';
import type { Db } from '../knex';
import type { OrderInsert, OrderRecord } from '../tables/orders';
import type { RefundRecord } from '../tables/refunds';
import { insertOrderEvents } from './events';

/**
 * The refunds ledger (docs/architecture.md, "Money invariants"). Each step takes the order row's
 * lock, so concurrent refunds of one order are decided one at a time by the database: a refund
 * is reserved (pending, counted in refunded_amount) before the processor is called and settled
 * after. Every step is idempotent by the refund id, which is derived from the refund itself
 * (the order and its idempotencyKey, or "full"): a re-run finds its own row instead of acting again.
 */

export interface LedgerRefund {
  id: string;
  amount: number;
  state: 'pending' | 'succeeded' | 'failed';
  processorReference: string | null;
}

export interface RefundedOrder {
  status: OrderStatusName;
  refundedAmount: number;
  currency: string;
  authorizationId: string;
}

export type Reservation =
  | { kind: 'reserved' | 'existing'; refund: LedgerRefund; order: RefundedOrder }
  /** New, and its caller had stopped waiting (RefundRequest.answerBy): nothing reserved. */
  | { kind: 'caller_gone'; answerBy: string }
  | (Omit<CommandRefusal, 'kind'> & { kind: 'refused' });

type RefundRow = RefundRecord;

const asRefund = (r: RefundRow): LedgerRefund => ({
  id: r.id,
  amount: r.amount,
  state: r.state,
  processorReference: r.processor_reference,
});

/** How long after completion an order can still be refunded (docs/orders.md). */
export const REFUND_WINDOW_MS = 180 * 24 * 3_600_000;

async function lockOrder(trx: Db, orderId: string, merchantId: string) {
  return trx('orders').where({ id: orderId, merchant_id: merchantId }).forUpdate().first();
}

/** Updates an order this transaction holds the lock of (lockOrder): it is there, one row comes back. */
async function updateLockedOrder(trx: Db, orderId: string, patch: Partial<OrderInsert>): Promise<OrderRecord> {
  const [updated] = await trx('orders').where({ id: orderId }).update(patch).returning('*');
  if (!updated) throw new Error(`order ${orderId} not found under its lock`);
  return updated;
}

function refundedOrder(o: {
  status_name: OrderStatusName;
  refunded_amount: number;
  currency: string;
  authorization_id: string | null;
}): RefundedOrder {
  return {
    status: o.status_name,
    refundedAmount: o.refunded_amount,
    currency: o.currency,
    authorizationId: o.authorization_id ?? '',
  };
}

/** Reserves the refund under the order's lock, or finds the one this request already made. */
export async function reserveRefund(db: Db, req: RefundRequest, now: Date): Promise<Reservation> {
  return db.transaction(async (trx) => {
    const order = await lockOrder(trx, req.orderId, req.merchantId);
    if (!order) return { kind: 'refused', reason: 'not_refundable', status: 'Draft' };
    const existing = await trx('refunds').where({ id: req.refundId, order_id: req.orderId }).first();
    if (existing) return { kind: 'existing', refund: asRefund(existing), order: refundedOrder(order) };
    // The clock is read under the order's lock, so this and refundReserved (the API's look after
    // its deadline, under the same lock) agree on whether the refund was reserved in time.
    if (req.answerBy && Date.now() > Date.parse(req.answerBy)) return { kind: 'caller_gone', answerBy: req.answerBy };
    const windowClosed = !order.completed_at || now.getTime() > order.completed_at.getTime() + REFUND_WINDOW_MS;
    if (!isRefundable(order.flow, order.status_name) || windowClosed)
      return { kind: 'refused', reason: 'not_refundable', status: order.status_name };
    const remaining = order.captured_amount - order.refunded_amount;
    const amount = req.amount ?? remaining;
    if (amount <= 0 || amount > remaining)
      return { kind: 'refused', reason: 'refund_exceeds_captured', status: order.status_name };
    await trx('refunds').insert({
      id: req.refundId,
      order_id: req.orderId,
      amount,
      currency: order.currency,
      kind: req.kind,
      idempotency_key: req.idempotencyKey,
      state: 'pending',
      processor_reference: null,
      created_at: now,
    });
    const updated = await updateLockedOrder(trx, req.orderId, {
      refunded_amount: order.refunded_amount + amount,
      version: order.version + 1,
      updated_at: now,
    });
    return {
      kind: 'reserved',
      refund: { id: req.refundId, amount, state: 'pending', processorReference: null },
      order: refundedOrder(updated),
    };
  });
}

/**
 * The processor refused the refund for good: it fails, and the amount it reserved is given back
 * to what the order may still refund, under the order's lock. Nothing is announced (no refund
 * happened). Idempotent: a refund already failed or settled is answered as it is.
 */
export async function releaseRefund(
  db: Db,
  input: { refundId: string; orderId: string; merchantId: string },
  now: Date,
): Promise<{ refund: LedgerRefund; order: RefundedOrder }> {
  return db.transaction(async (trx) => {
    const order = await lockOrder(trx, input.orderId, input.merchantId);
    const row = await trx('refunds').where({ id: input.refundId, order_id: input.orderId }).first();
    if (!order || !row) throw new Error(`refund ${input.refundId} of order ${input.orderId} is not in the ledger`);
    if (row.state !== 'pending') return { refund: asRefund(row), order: refundedOrder(order) };
    await trx('refunds').where({ id: input.refundId }).update({ state: 'failed', settled_at: now });
    const updated = await updateLockedOrder(trx, input.orderId, {
      refunded_amount: order.refunded_amount - row.amount,
      version: order.version + 1,
      updated_at: now,
    });
    return { refund: { ...asRefund(row), state: 'failed' }, order: refundedOrder(updated) };
  });
}

/**
 * Records the processor's refund: the refund succeeds, the order moves as the transition table
 * says (src/domain/orders/transitions.ts: Returned once everything captured is refunded), and order.refunded is written to the outbox (its id derived from the
 * refund's, so a re-run cannot announce it twice).
 */
export async function settleRefund(
  db: Db,
  input: { refundId: string; orderId: string; merchantId: string; processorReference: string; eventId: string },
  now: Date,
): Promise<{ refund: LedgerRefund; order: RefundedOrder }> {
  return db.transaction(async (trx) => {
    const order = await lockOrder(trx, input.orderId, input.merchantId);
    const row = await trx('refunds').where({ id: input.refundId, order_id: input.orderId }).first();
    if (!order || !row) throw new Error(`refund ${input.refundId} of order ${input.orderId} is not in the ledger`);
    if (row.state !== 'pending') return { refund: asRefund(row), order: refundedOrder(order) };

    await trx('refunds')
      .where({ id: input.refundId })
      .update({ state: 'succeeded', processor_reference: input.processorReference, settled_at: now });
    const settled = await trx('refunds')
      .where({ order_id: input.orderId, state: 'succeeded' })
      .sum<{ total: number | string | null }>({ total: 'amount' })
      .first();
    const settledTotal = Number(settled?.total ?? 0);
    // The transition table decides the status a settled refund leaves (Returned once all is refunded).
    const status = statusAfterRefund(order.flow, order.status_name, settledTotal, order.captured_amount);
    const version = order.version + 1;
    const updated = await updateLockedOrder(trx, input.orderId, {
      status: ORDER_STATUS[status],
      status_name: status,
      version,
      updated_at: now,
    });
    if (status !== order.status_name) {
      await trx('order_transitions').insert({
        order_id: input.orderId,
        version,
        from_status: order.status_name,
        to_status: status,
        reason: `refunded in full (${input.refundId})`,
        at: now,
      });
    }
    const data: RefundedEventData = {
      Timestamp: now.toISOString(),
      Message: row.amount === order.captured_amount ? 'Full refund processed' : 'Partial refund processed',
      TransactionId: input.refundId,
      InitialTransactionReference: order.authorization_id ?? '',
      Amount: row.amount,
      Currency: order.currency,
    };
    await insertOrderEvents(
      trx,
      {
        orderId: order.id,
        merchantId: order.merchant_id,
        partnerId: order.partner_id,
        externalOrderId: order.external_order_id,
        confirmationId: order.confirmation_id,
        isTestMode: order.is_test_mode,
      },
      [{ id: input.eventId, name: 'order.refunded', occurredAt: now.toISOString(), data }],
    );
    return {
      refund: { ...asRefund(row), state: 'succeeded', processorReference: input.processorReference },
      order: refundedOrder(updated),
    };
  });
}
