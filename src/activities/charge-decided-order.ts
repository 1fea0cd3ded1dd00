import type { Db } from '../db/knex';
import { orderVersionWrittenAt, orderWrites } from '../db/repositories/orders';
import type { ChargeRecord } from '../db/tables/charges';
import { derivedUuid } from '../domain/ids';
import { type ChargeKind, unsettledCharge } from '../domain/orders/charge-attempts';
import { evaluateChargeDecision } from '../domain/orders/charge-decision';
import type {
  ChargeInput,
  ChargeResult,
  DecisionPlan,
  OrderState,
  PersistOrderInput,
} from '../domain/orders/contracts';
import { committedState, persistInputOf, recordedCalls } from '../domain/orders/order-commit';
import { declaredMove } from '../domain/orders/transitions';
import { chargeResultOf } from '../processors/advice';
import type { Advice, ChargeOutcome } from '../processors/port';
import type { LedgerRecording } from './charge-ledger';

/**
 * The first evaluate's order as its charge's answer decides it (ChargeInput.decides): the state
 * the workflow's commit would write (src/workflows/order/order.ts), and that write. The answer's
 * time stands for the clock, so an answer read back from its row decides the same order again;
 * the confirmation id derives from the order and its version, for the same reason.
 */
export function decidedOrder(
  plan: DecisionPlan,
  charge: { kind: ChargeKind; attempt: number; key: string; result: ChargeResult },
  at: Date,
): { changes: Partial<OrderState>; persist: PersistOrderInput } {
  const { draft } = plan;
  const version = String(draft.version + 1);
  const ctx = {
    now: at,
    captureWindowMinutes: plan.captureWindowMinutes,
    challengeFrom: at,
    confirmationId: () => derivedUuid('confirmation', draft.orderId, version),
  };
  const decided = evaluateChargeDecision(draft, charge.result, ctx);
  const answered = { attempt: charge.attempt, result: charge.result, at: at.toISOString() };
  // The call is recorded under its ledger row's key (the first send's, should this one differ).
  const calls = plan.calls.map((c) =>
    c.kind === charge.kind && c.attempt === charge.attempt ? { ...c, key: charge.key } : c,
  );
  const recording = { answered, calls: recordedCalls(calls, answered), unsettled: unsettledCharge(calls) };
  const state = committedState(draft, decided.changes, recording, at);
  // A move the transition table does not declare is a bug: nothing is written, and the activity
  // fails retryably on purpose. Each retry sends the charge again under its row's key (the
  // processor answers the same; no money moves twice) until a release with the fix decides it,
  // rather than the order ending in Problem; callers get 500 500010 meanwhile.
  declaredMove(
    'Draft',
    'evaluate',
    state.flow,
    state.status,
    decided.events.map((e) => e.name),
  );
  return { changes: decided.changes, persist: persistInputOf(state, plan.from, decided.reason, decided.events) };
}

/** A charge's outcome as its answered ledger row recorded it (ledgerAnswerOf, read back). */
export function outcomeOfRow(row: ChargeRecord): ChargeOutcome {
  switch (row.result) {
    case 'approved':
      return { result: 'approved', authorizationId: row.processor_reference ?? '' };
    case 'declined':
      return {
        result: 'declined',
        code: row.network_code ?? '',
        advice: (row.advice ?? 'hard_decline') as Advice,
        ...(row.merchant_advice_code ? { merchantAdviceCode: row.merchant_advice_code } : {}),
        ...(row.processor_decline_code ? { processorCode: row.processor_decline_code } : {}),
      };
    case 'challenge_required':
      return { result: 'challenge_required' };
    default:
      return { result: 'unavailable' };
  }
}

/** A charge's result as the workflow gets it: the ledger row's key, and a decline's advice. */
export function chargeResultWith(outcome: ChargeOutcome, key: string): ChargeResult {
  return { ...chargeResultOf(outcome), key, ...(outcome.result === 'declined' ? { advice: outcome.advice } : {}) };
}

/**
 * The first evaluate's charge (ChargeInput.decides): the order its answer decides is written in
 * the statement recording the answer (`decide`), or only read back with an answer recorded
 * before (`adopt`); `written` gives that order, or none when nothing decided it.
 */
export function decidingWith(db: Db, input: ChargeInput, kind: ChargeKind) {
  const plan = input.decides;
  if (!plan) return undefined;
  const decision: {
    recording: LedgerRecording<ChargeOutcome>;
    decided?: ChargeResult['decided'];
    written?: PersistOrderInput;
  } = {
    recording: {
      readBack: outcomeOfRow,
      async writesWith(outcome, { key, sentAt, at, readBack }) {
        const charge = { kind, attempt: input.attempt, key, result: chargeResultWith(outcome, key) };
        // Recorded before: the order written with that answer stands, made at its own time.
        const writtenAt = readBack ? await orderVersionWrittenAt(db, plan.draft.orderId, plan.draft.version + 1) : null;
        if (writtenAt) {
          decision.decided = { changes: decidedOrder(plan, charge, writtenAt).changes, atUtc: writtenAt.toISOString() };
          return [];
        }
        if (plan.mode === 'adopt') return [];
        // On the workflow's clock (its time of the send, plus the call's own time), as its commit would be.
        const sent = input.attemptedAtUtc ? Date.parse(input.attemptedAtUtc) : sentAt.getTime();
        const decidedAt = new Date(sent + Math.max(0, at.getTime() - sentAt.getTime()));
        const order = decidedOrder(plan, charge, decidedAt);
        decision.decided = { changes: order.changes, atUtc: decidedAt.toISOString() };
        decision.written = order.persist;
        return orderWrites(db, order.persist);
      },
    },
  };
  return decision;
}
