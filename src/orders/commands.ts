import type { Db } from '../db/knex';
import {
  findMerchantOrder,
  findMerchantOrderBySessionKey,
  type OrderRow,
  orderViewOf,
} from '../db/repositories/orders';
import { refundReserved } from '../db/repositories/refunds';
import { ApiError, ERROR_CATALOGUE } from '../domain/errors';
import { derivedUuid } from '../domain/ids';
import type { CommandRefusal } from '../domain/orders/contracts';
import { ORDER_STATUS, type OrderStatusName } from '../domain/orders/status';
import { cancelUpdate, captureUpdate } from '../workflows';
import type { Answer } from './answer';
import type { OrderDeps } from './deps';
import { CLOSED } from './order-client';

/** The order commands as use cases: capture, cancel (and external-cancel), refund. */

/**
 * The envelope of every command answer (evaluate, capture, refund), as the FlexCharge clients
 * judge it: `status` is the outcome word, `success` says the request was processed (a DECLINED
 * evaluate is processed: HTTP 200, `success: true`, `status: "DECLINED"`). The order's numeric
 * status and its name move to `orderStatus` / `orderStatusName`; no `statusName` may shadow
 * the outcome word (docs/compatibility.md).
 */
export function commandAnswer(outcome: string, order: OrderStatusName, fields: Record<string, unknown>) {
  return {
    ...fields,
    success: true,
    result: 'Success',
    status: outcome,
    statusCode: null,
    errors: [] as unknown[],
    customProperties: {},
    orderStatus: ORDER_STATUS[order],
    orderStatusName: order,
  };
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

const REFUSALS: Record<CommandRefusal['reason'], ConstructorParameters<typeof ApiError>[0]> = {
  not_capturable: 'order_not_capturable',
  not_cancellable: 'order_not_cancellable',
  not_refundable: 'order_not_refundable',
  refund_exceeds_captured: 'refund_exceeds_captured',
  capture_exceeds_authorized: 'capture_exceeds_authorized',
  not_in_challenge: 'order_not_in_challenge',
};

/** A command the order's state refuses: its 409, with the order's current status. */
export function refusal(reason: CommandRefusal['reason'], status: OrderStatusName): ApiError {
  const error = REFUSALS[reason];
  return new ApiError(error, {
    extra: { orderStatus: ORDER_STATUS[status], orderStatusName: status },
    // FlexCharge clients read a refusal's text from a top-level responseMessage.
    topLevel: { responseMessage: ERROR_CATALOGUE[error].message },
  });
}

export async function captureOrder(
  deps: OrderDeps,
  order: OrderRow,
  amount: number | null,
  idempotencyKey: string,
): Promise<Answer> {
  const result = await deps.workflows.command(order.workflow_id, captureUpdate, { amount }, idempotencyKey);
  if (result === CLOSED) {
    // Closed since `order` was read (by another capture, a cancel, the window): refuse with its status now.
    const settled = await findMerchantOrder(deps.db, order.merchant_id, order.id);
    throw refusal('not_capturable', settled?.status_name ?? order.status_name);
  }
  if (result.kind === 'refused') throw refusal(result.reason, result.status);
  const updated = await findMerchantOrder(deps.db, order.merchant_id, order.id);
  if (!updated) throw new ApiError('internal_error');
  const { status: _n, statusName: _s, ...view } = await orderViewOf(deps.db, updated);
  return { status: 200, body: commandAnswer('APPROVED', updated.status_name, view) };
}

/**
 * Cancel and external-cancel: one operation on one order (a repeat is a no-op). `find` reads the
 * order again when its workflow has closed: cancelled answers 200, anything else is refused.
 */
export async function cancelOrder(
  deps: OrderDeps,
  workflowId: string,
  find: () => Promise<OrderRow | undefined>,
  via: 'cancel' | 'external-cancel',
): Promise<Answer> {
  const result = await deps.workflows.command(workflowId, cancelUpdate, { via });
  if (result === CLOSED) {
    const settled = await find();
    if (!settled) throw new ApiError('order_not_found');
    if (settled.status_name !== 'Cancelled') throw refusal('not_cancellable', settled.status_name);
  } else if (result.kind === 'refused') {
    throw refusal(result.reason, result.status);
  }
  return { status: 200 }; // empty body, as the interface states
}

/**
 * A refund, run by its own refund workflow against the refunds ledger. Its id is a function of
 * the refund: the full refund of this order, or this order's partial refund under this
 * idempotencyKey. Asked twice, it is one refund.
 */
export async function refundOrder(
  deps: OrderDeps,
  order: OrderRow,
  refund: { amount: number | null; partial: boolean; idempotencyKey: string | null },
): Promise<Answer> {
  const refundId = derivedUuid('refund', order.id, refund.partial ? `partial:${refund.idempotencyKey}` : 'full');
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
      if (err instanceof ApiError && err.errorName === 'order_temporarily_unavailable') {
        if (await refundReserved(deps.db, order.id, refundId)) throw new ApiError('order_outcome_pending');
      }
      throw err;
    });
  if (result.kind === 'refused') throw refusal(result.reason, result.status);
  return {
    status: 200,
    body: commandAnswer('APPROVED', result.status, {
      orderId: order.id,
      orderSessionKey: order.order_session_key,
      transactionId: result.transactionId,
      amount: result.amount,
      refundedAmount: result.refundedAmount,
      currency: order.currency,
    }),
  };
}
