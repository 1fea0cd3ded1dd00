import type { ChargeResult } from './activity-contracts';
import { type ChargeAttempt, isCardCharge, moveCharge } from './charge-attempts';
import type { OrderDomainEvent } from './domain-events';
import type { OrderState, PersistOrderInput } from './order-state';
import type { OrderStatusName } from './status';

/**
 * What one commit of the order writes: the next state, from the last one, the changes and the
 * charge answer it records. Pure: the order entity (src/workflows/order/order.ts) commits through
 * it, and so does the charge activity that records the first evaluate's decision with its answer.
 */

/** A charge's answer, waiting for the commit that records it. */
export interface ChargeAnswered {
  attempt: number;
  result: ChargeResult;
  at: string;
}

/** What the processor's answer to a charge says, as its attempt records it. */
export function answerFields(answer: ChargeAnswered): Partial<ChargeAttempt> {
  const r = answer.result;
  return {
    result: r.result === 'soft_decline' || r.result === 'hard_decline' ? 'declined' : r.result,
    networkCode: 'code' in r ? r.code : null,
    advice: r.advice ?? null,
    answeredAtUtc: answer.at,
  };
}

/** The charge the commit records the answer of moves to `answered` (a reversed one stays reversed). */
export function recordAnswer(call: ChargeAttempt, answer: ChargeAnswered): ChargeAttempt {
  if (!isCardCharge(call.kind) || call.attempt !== answer.attempt || call.state !== 'sent') return call;
  return moveCharge(call, 'answered', answerFields(answer));
}

/** The charges a commit records: `calls`, with `answered`'s charge answered. */
export function recordedCalls(calls: ChargeAttempt[], answered: ChargeAnswered | null): ChargeAttempt[] {
  return answered ? calls.map((c) => recordAnswer(c, answered)) : calls;
}

/**
 * The next state: `base` with `changes`, the answered charge's attempt number, and `calls` as
 * recorded. A Problem over a charge sent and never answered (`unsettled`, not the one answered)
 * says its outcome is unknown: it may stand, unlike one the processor refused.
 */
export function committedState(
  base: OrderState,
  changes: Partial<OrderState>,
  recording: { answered: ChargeAnswered | null; calls: ChargeAttempt[]; unsettled: ChargeAttempt | undefined },
  now: Date,
): OrderState {
  const { answered, calls, unsettled } = recording;
  const outcomeUnknown = changes.status === 'Problem' && !!unsettled && unsettled.attempt !== answered?.attempt;
  return {
    ...base,
    ...changes,
    ...(answered === null ? {} : { serviceAttempts: answered.attempt }),
    ...(outcomeUnknown ? { chargeOutcomeUnknown: true } : {}),
    attempts: calls,
    version: base.version + 1,
    updatedAtUtc: now.toISOString(),
  };
}

/** The read model's write of a commit: the state, its transition (none when the status stays) and events. */
export function persistInputOf(
  next: OrderState,
  from: OrderStatusName | null,
  reason: string,
  events: readonly OrderDomainEvent[],
): PersistOrderInput {
  return {
    state: next,
    transition: from === next.status ? null : { from, to: next.status, reason },
    events: events.map((event) => ({ occurredAt: next.updatedAtUtc, event })),
  };
}
