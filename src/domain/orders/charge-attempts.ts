/**
 * An order's processor calls (its charges, and the capture, voids and reversals of them) and the
 * states each goes through: the same in the order entity (src/workflows/order/order.ts) and in the
 * charges ledger (src/db/repositories/charges.ts). Pure: the workflow and the database share it.
 *
 *   intent -> sent -> answered -> reversed
 *               |  \-> unknown -> sent (sent again under the same key)
 *               \--> reversed (an approval undone before the order recorded its answer)
 *
 * `intent`: written before the processor is called (the money invariant: the intent is durable
 * first). `sent`: the call is under way, or its caller died during it. `unknown`: the call ended
 * with no answer (a timeout, "unavailable" when settling). `answered`: the processor's answer is
 * recorded. `reversed`: an approval was given back (voided or refunded). Only `answered` and
 * `reversed` are settled: a charge in any other state may have moved money, and is sent again
 * under its key (the processor answers a repeated key with its first answer) before anything
 * else decides.
 */

/** sale and authorization charge the card; capture, void and reversal act on an approved one. */
export type ChargeKind = 'sale' | 'authorization' | 'capture' | 'void' | 'reversal';
export type ChargeState = 'intent' | 'sent' | 'answered' | 'reversed' | 'unknown';

/**
 * What the processor said: a charge's answer, or `done` for a capture, void or reversal, or
 * `refused` for a capture it refused for good (the same request is refused again).
 */
export type ChargeAnswerResult = 'approved' | 'declined' | 'challenge_required' | 'unavailable' | 'done' | 'refused';

export interface ChargeAttempt {
  kind: ChargeKind;
  /** The charge attempt it belongs to: a charge's own number, or the one a capture or void acts on. */
  attempt: number;
  /** The ledger row's id: the idempotency key the processor is sent. */
  key: string;
  state: ChargeState;
  result: ChargeAnswerResult | null;
  /** A decline's network response code. */
  networkCode: string | null;
  /** A decline's advice: retryable, hard_decline or do_not_retry (src/processors/port.ts). */
  advice: string | null;
  createdAtUtc: string;
  answeredAtUtc: string | null;
}

const CHARGE_MOVES: Readonly<Record<ChargeState, readonly ChargeState[]>> = {
  intent: ['sent'],
  // sent -> sent: the same call again after its caller died (a worker crash) mid-call.
  sent: ['sent', 'answered', 'unknown', 'reversed'],
  unknown: ['sent'],
  answered: ['reversed'],
  reversed: [],
};

/** Whether a processor call may move from `from` to `to` (staying `answered` or `reversed` is allowed: a repeat). */
export function chargeMoveAllowed(from: ChargeState, to: ChargeState): boolean {
  return from === to ? from !== 'intent' && from !== 'unknown' : CHARGE_MOVES[from].includes(to);
}

export class UndeclaredChargeMoveError extends Error {
  override name = 'UndeclaredChargeMoveError';
}

/** The attempt in its next state, or a throw: a move the table does not declare is a bug. */
export function moveCharge(
  attempt: ChargeAttempt,
  to: ChargeState,
  changes: Partial<ChargeAttempt> = {},
): ChargeAttempt {
  if (!chargeMoveAllowed(attempt.state, to))
    throw new UndeclaredChargeMoveError(
      `${attempt.kind} ${attempt.attempt} cannot move from ${attempt.state} to ${to}`,
    );
  return { ...attempt, ...changes, state: to };
}

/**
 * How long after its first send an unanswered charge's key is trusted to replay its first answer:
 * Stripe keeps a key 24 hours, after which the same key charges anew. Past it, the charge is never
 * sent again to learn its outcome.
 */
export const KEY_TRUSTED_MS = 20 * 3_600_000;

/**
 * The ledger's own bound on the same (src/activities/charge-ledger.ts): a card charge first sent
 * longer ago than this is not sent again, whatever asks (a retry's timer that fired hours late
 * after an outage, a cancel, the window's end). Past KEY_TRUSTED_MS, when the workflow's last
 * send is due, by enough for that send and its retries; short of Stripe's 24 hours.
 */
export const KEY_RESEND_LIMIT_MS = 22 * 3_600_000;

/** A call whose money may have moved and whose answer is not known: it is sent again under its key. */
export const isUnsettled = (state: ChargeState): boolean =>
  state === 'intent' || state === 'sent' || state === 'unknown';

/** The kinds that charge the card (the others act on an approved charge). */
export const isCardCharge = (kind: ChargeKind): kind is 'sale' | 'authorization' =>
  kind === 'sale' || kind === 'authorization';

/** The charge (sale or authorization) of this attempt number, if one was made. */
export function chargeOf(attempts: readonly ChargeAttempt[], attempt: number): ChargeAttempt | undefined {
  return attempts.find((a) => isCardCharge(a.kind) && a.attempt === attempt);
}

/** The charge whose answer is not known (there is at most one: a new attempt waits for it). */
export function unsettledCharge(attempts: readonly ChargeAttempt[]): ChargeAttempt | undefined {
  return attempts.find((a) => isCardCharge(a.kind) && isUnsettled(a.state));
}
