import { derivedUuid } from '../../domain/ids';
import type { PersistOrderInput } from '../../domain/orders/contracts';
import { outboxEvent } from '../../domain/orders/domain-events';
import { ORDER_STATUS, STATUS_WORD } from '../../domain/orders/status';
import { orderWorkflowId } from '../../domain/orders/workflow-ids';
import type { Db } from '../knex';
import { type Write, writeAsOneStatement } from '../one-statement';
import type { ChargeRecord } from '../tables/charges';
import type { OrderRecord } from '../tables/orders';
import { chargeAttemptView, listOrderCharges } from './charges';
import { orderEventsInsert } from './events';

/**
 * Writes one transition of an order durably: the state, the transition row and the events, as
 * one statement (one round trip, atomic: src/db/one-statement.ts). Idempotent: a re-run of the
 * same version rewrites the same row and events (ids derived from order, version and position),
 * and an older version never overwrites a newer one.
 * `refunded_amount` is owned by the refunds ledger (src/db/repositories/refunds.ts), never written here.
 */
export async function persistOrder(db: Db, input: PersistOrderInput): Promise<void> {
  await writeAsOneStatement(db, orderWrites(db, input));
}

/** persistOrder's writes, built and not sent (to send with other writes: src/db/one-statement.ts). */
export function orderWrites(db: Db, input: PersistOrderInput): Write[] {
  const s = input.state;
  const row = {
    id: s.orderId,
    version: s.version,
    merchant_id: s.merchantId,
    partner_id: s.partnerId,
    external_order_id: s.externalOrderId,
    order_session_key: s.orderSessionKey,
    workflow_id: orderWorkflowId(s.merchantId, s.externalOrderId),
    is_test_mode: s.isTestMode,
    flow: s.flow,
    transaction_type: s.transactionType,
    is_mit: s.isMIT,
    is_recurring: s.isRecurring,
    status: ORDER_STATUS[s.status],
    status_name: s.status,
    outcome: s.outcome,
    amount: s.amount,
    currency: s.currency,
    authorized_amount: s.authorizedAmount,
    captured_amount: s.capturedAmount,
    refunded_amount: s.refundedAmount,
    card_token: s.card.token,
    card_brand: s.card.brand,
    card_bin: s.card.bin,
    card_last4: s.card.last4,
    sense_key: s.senseKey,
    response_code: s.responseCode,
    decline_code: s.responseCode,
    attempt_count: s.attemptCount,
    service_attempts: s.serviceAttempts,
    charge_outcome_unknown: s.chargeOutcomeUnknown ?? false,
    declined_at: s.declinedAtUtc,
    window_ends_at: s.windowEndsAtUtc,
    capture_before: s.captureBeforeUtc,
    confirmation_id: s.confirmationId,
    authorization_id: s.authorizationId,
    score: s.score,
    reasons: s.reasons,
    device_signals_used: s.deviceSignalsUsed,
    created_at: s.createdAtUtc,
    updated_at: s.updatedAtUtc,
    completed_at: s.completedAtUtc,
    cancelled_at: s.cancelledAtUtc,
    expired_at: s.expiredAtUtc,
  };
  // decline_code stays the first row's: the code the order came with (docs/reports.md).
  const {
    id: _id,
    merchant_id: _m,
    external_order_id: _e,
    created_at: _c,
    refunded_amount: _r,
    decline_code: _d,
    ...mutable
  } = row;
  const writes: Write[] = [
    db('orders').insert(row).onConflict('id').merge(mutable).where('orders.version', '<=', s.version),
  ];
  if (input.transition) {
    writes.push(
      db('order_transitions')
        .insert({
          order_id: s.orderId,
          version: s.version,
          from_status: input.transition.from,
          to_status: input.transition.to,
          reason: input.transition.reason,
          at: s.updatedAtUtc,
        })
        .onConflict(['order_id', 'version'])
        .ignore(),
    );
  }
  const events = orderEventsInsert(
    db,
    s,
    input.events.map(outboxEvent).map((e, position) => ({
      id: derivedUuid('event', s.orderId, String(s.version), String(position), e.name),
      ...e,
    })),
  );
  if (events) writes.push(events);
  return writes;
}

/**
 * When version `version` of the order was written, if it was: its transition's time, else the
 * row's updated_at while the row still holds that version. A refund reserved or settled since
 * moves the row's version on (src/db/repositories/refunds.ts), but not the transition.
 */
export async function orderVersionWrittenAt(db: Db, orderId: string, version: number): Promise<Date | null> {
  const transition = await db('order_transitions').where({ order_id: orderId, version }).first('at');
  if (transition) return transition.at;
  const row = await db('orders').where({ id: orderId, version }).first('updated_at');
  return row?.updated_at ?? null;
}

/** An `orders` row as read (its columns: src/db/tables/orders.ts). */
export type OrderRow = OrderRecord;

export async function findMerchantOrder(db: Db, merchantId: string, orderId: string): Promise<OrderRow | undefined> {
  return db('orders').where({ id: orderId, merchant_id: merchantId }).first();
}

/** The merchant's order with this orderSessionKey (FlexCharge clients send it where an orderId goes). */
export async function findMerchantOrderBySessionKey(
  db: Db,
  merchantId: string,
  orderSessionKey: string,
): Promise<OrderRow | undefined> {
  return db('orders').where({ merchant_id: merchantId, order_session_key: orderSessionKey }).first();
}

export async function findMerchantOrderByExternalId(
  db: Db,
  merchantId: string,
  externalOrderId: string,
): Promise<OrderRow | undefined> {
  return db('orders').where({ merchant_id: merchantId, external_order_id: externalOrderId }).first();
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

/**
 * The body of GET /v1/orders/{id} (and of the deprecated POST /v1/outcome). `status` is the
 * interface's integer; `statusName` is the state as one upper-case word (`CAPTUREREQUIRED`,
 * `SUCCESS` for Completed, ...: STATUS_WORD), which is what FlexCharge clients read; `id` repeats `orderId` for them.
 * Once the rescue window has ended without a rescue, `outcome` is `EXPIRED` (the interface's
 * expired outcome), not the first answer.
 */
export function orderView(row: OrderRow, charges: readonly ChargeRecord[]) {
  return {
    id: row.id,
    orderId: row.id,
    orderSessionKey: row.order_session_key,
    externalOrderId: row.external_order_id,
    confirmationId: row.confirmation_id,
    senseKey: row.sense_key,
    status: row.status,
    statusName: STATUS_WORD[row.status_name],
    outcome: row.expired_at ? 'EXPIRED' : row.outcome,
    flow: row.flow,
    transactionType: row.transaction_type,
    isMIT: row.is_mit,
    isRecurring: row.is_recurring,
    isTestMode: row.is_test_mode,
    currency: row.currency,
    amounts: {
      requested: row.amount,
      authorized: row.authorized_amount,
      captured: row.captured_amount,
      refunded: row.refunded_amount,
    },
    card: { brand: row.card_brand, last4: row.card_last4 },
    rescueWindowEndsAtUtc: iso(row.window_ends_at),
    captureBeforeUtc: iso(row.capture_before),
    scoring: { score: row.score, reasons: row.reasons, deviceSignalsUsed: row.device_signals_used },
    createdAtUtc: iso(row.created_at),
    updatedAtUtc: iso(row.updated_at),
    completedAtUtc: iso(row.completed_at),
    cancelledAtUtc: iso(row.cancelled_at),
    expiredAtUtc: iso(row.expired_at),
    /** Every processor call of the order, from the charges ledger (docs/orders.md, "Charge attempts"). */
    attempts: charges.map(chargeAttemptView),
  };
}

/** orderView with the order's processor calls read from the charges ledger. */
export async function orderViewOf(db: Db, row: OrderRow) {
  return orderView(row, await listOrderCharges(db, row.id));
}
