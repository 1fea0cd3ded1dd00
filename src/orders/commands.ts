import type { Db } from '../db/knex';
import {
  findMerchantOrder,
  findMerchantOrderBySessionKey,
  type OrderRow,
  orderViewOf,
} from '../db/repositories/orders';
import { findRefund, refundReserved } from '../db/repositories/refund-lookups';
import { derivedUuid } from '../domain/ids';
import { OrderFailure, refused } from '../domain/orders/order-failure';
import type { OrderStatusName } from '../domain/orders/status';
import { cancelUpdate, captureUpdate } from '../workflows';
import type { OrderDeps } from './deps';
import { CLOSED } from './order-client';

/**
 * The order commands as use cases: capture, cancel (and external-cancel), refund. Each returns
 * what happened, or throws an OrderFailure; src/api shapes the answer.
 */

/** A capture done: the order as it now stands (its lookup view) and its status. */
export interface Captured {
  order: Awaited<ReturnType<typeof orderViewOf>>;
  status: OrderStatusName;
}

/** A refund done (or the same refund asked again). */
export interface Refunded {
  orderId: string;
  orderSessionKey: string;
  transactionId: string;
  amount: number;
  refundedAmount: number;
  currency: string;
  status: OrderStatusName;
}

/**
 * The merchant's order named by `ref`: its orderId or, as the FlexCharge clients also send, its
 * orderSessionKey (two different values; either finds the order). Undefined when unknown.
 */
export async function findOrderByReference(db: Db, merchantId: string, ref: string): Promise<OrderRow | undefined> {
  const byId = await findMerchantOrder(db, merchantId, ref);
  if (byId) return byId;
  return findMerchantOrderBySessionKey(db, merchantId, ref);
}

export async function captureOrder(
  deps: OrderDeps,
  order: OrderRow,
  amount: number | null,
  idempotencyKey: string,
): Promise<Captured> {
  // A capture whose answer was lost, sent again under a new key (ActiveMerchant makes one a call),
  // or racing its twin: the order it completed answers as that capture did, not 409004.
  const asCaptured = async (now: OrderRow) => ({ order: await orderViewOf(deps.db, now), status: now.status_name });
  if (capturedAlready(order, amount)) return asCaptured(order);
  const result = await deps.workflows.command(order.workflow_id, captureUpdate, { amount }, idempotencyKey);
  if (result === CLOSED || (result.kind === 'refused' && result.reason === 'not_capturable')) {
    // Closed or settled since `order` was read (another capture, a cancel, the window): as it is now.
    const settled = await findMerchantOrder(deps.db, order.merchant_id, order.id);
    if (settled && capturedAlready(settled, amount)) return asCaptured(settled);
    throw refused('not_capturable', settled?.status_name ?? order.status_name);
  }
  if (result.kind === 'refused') throw refused(result.reason, result.status);
  const updated = await findMerchantOrder(deps.db, order.merchant_id, order.id);
  if (!updated) throw new OrderFailure({ reason: 'internal_error' });
  return { order: await orderViewOf(deps.db, updated), status: updated.status_name };
}

/** An authorization completed by its capture (or a Sync MIT further evaluate) of `amount` (null: all). */
function capturedAlready(order: OrderRow, amount: number | null): boolean {
  const authorized = order.flow === 'SYNC_MIT' || order.transaction_type === 'AUTHORIZATION';
  const captured = order.captured_amount > 0 && (amount === null || amount === order.captured_amount);
  return authorized && order.status_name === 'Completed' && captured;
}

/**
 * Cancel and external-cancel: one operation on one order (a repeat is a no-op). `find` reads the
 * order again when its workflow has closed: cancelled is done, anything else is refused.
 */
export async function cancelOrder(
  deps: OrderDeps,
  workflowId: string,
  find: () => Promise<OrderRow | undefined>,
  via: 'cancel' | 'external-cancel',
): Promise<{ kind: 'cancelled' }> {
  const result = await deps.workflows.command(workflowId, cancelUpdate, { via });
  if (result === CLOSED) {
    const settled = await find();
    if (!settled) throw new OrderFailure({ reason: 'order_not_found' });
    if (settled.status_name !== 'Cancelled') throw refused('not_cancellable', settled.status_name);
  } else if (result.kind === 'refused') {
    throw refused(result.reason, result.status);
  }
  return { kind: 'cancelled' };
}

/** A refund's id: the full refund of the order, or its partial refund under this idempotencyKey. */
export function refundIdOf(orderId: string, partialKey: string | null): string {
  return derivedUuid('refund', orderId, partialKey !== null ? `partial:${partialKey}` : 'full');
}

/**
 * The key a partial refund goes by: as parsed (lowercased), or as sent when a refund was reserved
 * under the key as sent before keys were lowercased (2026-11-29), so its retry is that refund.
 */
export async function partialRefundKey(db: Db, orderId: string, parsed: string, sent: unknown): Promise<string> {
  if (typeof sent !== 'string' || sent === parsed) return parsed;
  return (await findRefund(db, orderId, refundIdOf(orderId, sent))) ? sent : parsed;
}

/**
 * A refund, run by its own refund workflow against the refunds ledger. Its id is a function of
 * the refund (refundIdOf). Asked twice, it is one refund.
 */
export async function refundOrder(
  deps: OrderDeps,
  order: OrderRow,
  refund: { amount: number | null; partial: boolean; idempotencyKey: string | null },
): Promise<Refunded> {
  const refundId = refundIdOf(order.id, refund.partial ? refund.idempotencyKey : null);
  const result = await deps.workflows
    .refund({
      refundId,
      orderId: order.id,
      merchantId: order.merchant_id,
      kind: refund.partial ? 'partial' : 'full',
      amount: refund.amount,
      idempotencyKey: refund.idempotencyKey,
    })
    .catch(async (err: unknown) => {
      // Not answered in time: "nothing was decided" only if the ledger never reserved it.
      if (err instanceof OrderFailure && err.reason === 'order_temporarily_unavailable') {
        if (await refundReserved(deps.db, order.id, refundId))
          throw new OrderFailure({ reason: 'order_outcome_pending' });
      }
      throw err;
    });
  if (result.kind === 'refused') throw refused(result.reason, result.status);
  return {
    orderId: order.id,
    orderSessionKey: order.order_session_key,
    transactionId: result.transactionId,
    amount: result.amount,
    refundedAmount: result.refundedAmount,
    currency: order.currency,
    status: result.status,
  };
}
