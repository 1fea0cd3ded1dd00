import type { ChargeAnswerResult, ChargeKind } from '../../domain/orders/charge-attempts';
import type { Db } from '../knex';
import type { ChargeRecord, ChargeRequestRecord } from '../tables/charges';

/**
 * The charges ledger (docs/architecture.md, "Money invariants"): every processor call of an order
 * is a row written before the call (its intent, recorded as sent), whose id is the idempotency key
 * the processor is sent, and on which the answer is recorded. Each step is idempotent: the intent
 * for an (order, kind, attempt) that has one returns that row (so a re-run sends the same key),
 * and a state only moves forward (src/domain/orders/charge-attempts.ts), so recording an answer
 * twice changes nothing. (Rows written before 2026-11-28 may be `intent`: written, not yet sent.)
 */

export interface ChargeIntent {
  /** The id to give a new row (the caller's; an existing row keeps its own). */
  id: string;
  orderId: string;
  merchantId: string;
  externalOrderId: string;
  kind: ChargeKind;
  attempt: number;
  amount: number;
  currency: string;
  /** A charge's request, to send it again under its key (sale, authorization). */
  request?: ChargeRequestRecord;
  /** When a charge is attempted, on the workflow's clock (default: now). */
  attemptedAt?: Date;
}

export interface ChargeAnswer {
  result: ChargeAnswerResult;
  networkCode?: string | null;
  advice?: string | null;
  merchantAdviceCode?: string | null;
  processorDeclineCode?: string | null;
  processorReference?: string | null;
}

/** The externalOrderId's order is another run's: no charge may be sent under this orderId. */
export class ExternalOrderTakenError extends Error {
  override name = 'ExternalOrderTakenError';
}

/**
 * A card charge's attempt already has a row made for another amount, currency or card: nothing is
 * sent under its key (src/db/repositories/charge-sending.ts). A bug's guard: no path reuses one.
 */
export class ChargeRequestChangedError extends Error {
  override name = 'ChargeRequestChangedError';
}

/** The call ended with no answer: its outcome is not known (a later send under the key settles it). */
export async function markChargeUnknown(db: Db, id: string): Promise<void> {
  await db('charges').where({ id, state: 'sent' }).update({ state: 'unknown' });
}

/** Records the processor's answer once; a repeat (a re-run, a re-send's replayed answer) changes nothing. */
export async function recordChargeAnswer(db: Db, id: string, answer: ChargeAnswer, now: Date): Promise<void> {
  await chargeAnswerWrite(db, id, answer, now);
}

/** recordChargeAnswer's statement, built and not sent (to send with other writes: src/db/one-statement.ts). */
export function chargeAnswerWrite(db: Db, id: string, answer: ChargeAnswer, now: Date) {
  return db('charges')
    .where({ id })
    .whereIn('state', ['intent', 'sent', 'unknown'])
    .update({
      state: 'answered',
      result: answer.result,
      network_code: answer.networkCode ?? null,
      advice: answer.advice ?? null,
      merchant_advice_code: answer.merchantAdviceCode ?? null,
      processor_decline_code: answer.processorDeclineCode ?? null,
      processor_reference: answer.processorReference ?? null,
      answered_at: now,
    });
}

/** The charge of `attempt` was given back (voided or refunded). */
export async function markChargeReversed(db: Db, orderId: string, attempt: number, now: Date): Promise<void> {
  await db('charges')
    .where({ order_id: orderId, attempt })
    .whereIn('kind', ['sale', 'authorization'])
    .where('state', 'answered')
    .update({ state: 'reversed', reversed_at: now });
}

/** An order's processor calls, in the order they were made. */
export async function listOrderCharges(db: Db, orderId: string): Promise<ChargeRecord[]> {
  return db('charges')
    .where({ order_id: orderId })
    .orderBy([{ column: 'created_at' }, { column: 'attempt' }]);
}

/** The processor calls of several orders (a page of the order search), by order, in one query. */
export async function listChargesOfOrders(db: Db, orderIds: readonly string[]): Promise<Map<string, ChargeRecord[]>> {
  const byOrder = new Map<string, ChargeRecord[]>();
  if (!orderIds.length) return byOrder;
  const rows = await db('charges')
    .whereIn('order_id', [...orderIds])
    .orderBy([{ column: 'created_at' }, { column: 'attempt' }]);
  for (const row of rows) byOrder.set(row.order_id, [...(byOrder.get(row.order_id) ?? []), row]);
  return byOrder;
}

/**
 * The charges no order holds whose money may stand: not answered (intent, sent, unknown), answered
 * "unavailable" (the processor could not say), or approved and never given back. Those of an
 * order's run that closed before its first evaluate was decided (src/orders/unevaluated-run.ts),
 * or, on a declined order, those of attempts after the ones it recorded (`afterAttempt`: a new
 * attempt's run that closed undecided, src/orders/new-attempt.ts).
 */
export async function chargesToReconcile(
  db: Db,
  merchantId: string,
  orderId: string,
  afterAttempt = 0,
): Promise<ChargeRecord[]> {
  return db('charges')
    .where({ merchant_id: merchantId, order_id: orderId })
    .where('attempt', '>', afterAttempt)
    .whereIn('kind', ['sale', 'authorization'])
    .where((q) =>
      q
        .whereIn('state', ['intent', 'sent', 'unknown'])
        .orWhere((a) => a.where('state', 'answered').whereIn('result', ['approved', 'unavailable'])),
    )
    .orderBy('attempt');
}

/** The highest attempt number an order's charges (sales, authorizations) were sent under; 0 if none. */
export async function highestChargeAttempt(db: Db, merchantId: string, orderId: string): Promise<number> {
  const row = await db('charges')
    .where({ merchant_id: merchantId, order_id: orderId })
    .whereIn('kind', ['sale', 'authorization'])
    .max<{ max: number | null }>('attempt as max')
    .first();
  return row?.max ?? 0;
}

/** One charge of a merchant's, by its id (its processor key). */
export async function findCharge(db: Db, merchantId: string, id: string): Promise<ChargeRecord | undefined> {
  return db('charges').where({ id, merchant_id: merchantId }).first();
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** One processor call as GET /v1/orders/{id} shows it (`attempts`): no key, no processor reference. */
export function chargeAttemptView(row: ChargeRecord) {
  return {
    attempt: row.attempt,
    kind: row.kind,
    state: row.state,
    result: row.result,
    networkCode: row.network_code,
    advice: row.advice,
    createdAtUtc: row.created_at.toISOString(),
    answeredAtUtc: iso(row.answered_at),
  };
}
