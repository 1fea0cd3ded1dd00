import * as wf from '@temporalio/workflow';
import {
  type ChargeAttempt,
  type ChargeKind,
  chargeOf,
  isUnsettled,
  moveCharge,
  unsettledCharge,
} from '../../domain/orders/charge-attempts';
import type { ChargeResult, LedgerCall, OrderState } from '../../domain/orders/contracts';
import { type ChargeAnswered as Answered, answerFields, recordedCalls } from '../../domain/orders/order-commit';

/**
 * The order's processor calls (charges, capture, voids, reversals) as the charges ledger records
 * them, with the states of src/domain/orders/charge-attempts.ts. A call's move to `sent`,
 * `unknown` or `reversed` is kept at once (the ledger has it); a charge's answer moves it to
 * `answered` only with the commit that records it (Order.commit): lost with a refused write, the
 * charge stays unsettled and is sent again under its key, which answers the first outcome.
 */
export class ChargeCalls {
  private calls: ChargeAttempt[] = [];
  private answered: Answered | null = null;

  constructor(private readonly state: () => OrderState) {}

  get all(): readonly ChargeAttempt[] {
    return this.calls;
  }

  /** The charge sent whose answer the order has not recorded (intent, sent or unknown), if any. */
  get unsettled(): ChargeAttempt | undefined {
    return unsettledCharge(this.calls);
  }

  /**
   * A processor call is about to be made: the ledger call to send, under the key this call
   * already has (a re-send) or a new one. A charge settled (answered, reversed) and sent again
   * keeps its state: the processor only replays its answer.
   */
  sending(kind: ChargeKind, attempt: number, amount: number): LedgerCall {
    const s = this.state();
    const existing = this.find(kind, attempt);
    const call = existing ?? {
      kind,
      attempt,
      key: wf.uuid4(),
      state: 'intent' as const,
      result: null,
      networkCode: null,
      advice: null,
      createdAtUtc: new Date().toISOString(),
      answeredAtUtc: null,
    };
    if (!existing) this.calls.push(call);
    if (isUnsettled(call.state)) this.replace(moveCharge(call, 'sent'));
    const { orderId, merchantId, externalOrderId, currency } = s;
    return { key: call.key, orderId, merchantId, externalOrderId, kind, attempt, amount, currency };
  }

  /** The processor answered charge `attempt` (under `result.key`, the ledger's); the next commit records it. */
  answer(attempt: number, result: ChargeResult): void {
    const call = chargeOf(this.calls, attempt);
    if (call && result.key) this.replace({ ...call, key: result.key });
    // An answer recorded with its decided order (ChargeInput.decides) is timed as that order.
    this.answered = { attempt, result, at: result.decided?.atUtc ?? new Date().toISOString() };
  }

  /** Charge `attempt` got no answer that says anything of the money: it stays unsettled, unrecorded. */
  unanswered(attempt: number): void {
    if (this.answered?.attempt === attempt) this.answered = null;
    const call = chargeOf(this.calls, attempt);
    if (call?.state === 'sent') this.replace(moveCharge(call, 'unknown'));
  }

  /** The ledger refused the intent (another run's order holds the externalOrderId): nothing was sent. */
  notSent(kind: ChargeKind, attempt: number): void {
    this.calls = this.calls.filter((c) => c.kind !== kind || c.attempt !== attempt);
  }

  /** A capture, void or reversal was done (under `key`, the ledger row's), or refused for good. */
  done(kind: ChargeKind, attempt: number, key: string | undefined, result: 'done' | 'refused' = 'done'): void {
    const call = this.find(kind, attempt);
    if (!call || call.state === 'answered') return;
    const at = new Date().toISOString();
    this.replace(moveCharge(call, 'answered', { key: key ?? call.key, result, answeredAtUtc: at }));
  }

  /**
   * Charge `attempt`'s approval was given back (voided or refunded). Kept at once: should the write
   * that follows be refused, a later re-send of this attempt replays "approved", which is no rescue.
   */
  reversed(attempt: number): void {
    const call = chargeOf(this.calls, attempt);
    if (!call || call.state === 'reversed') return;
    const answer = this.answered?.attempt === attempt ? this.answered : null;
    this.replace(moveCharge(call, 'reversed', answer ? answerFields(answer) : {}));
  }

  /** For a commit: the answer it records (taken: lost with a refused write) and the calls as it records them. */
  recording(): { answered: Answered | null; calls: ChargeAttempt[] } {
    const answered = this.answered;
    this.answered = null;
    return { answered, calls: recordedCalls(this.calls, answered) };
  }

  /** The commit is durable: its calls are the order's. */
  recorded(calls: ChargeAttempt[]): void {
    this.calls = calls;
  }

  private find(kind: ChargeKind, attempt: number): ChargeAttempt | undefined {
    return this.calls.find((c) => c.kind === kind && c.attempt === attempt);
  }

  private replace(call: ChargeAttempt): void {
    this.calls = this.calls.map((c) => (c.kind === call.kind && c.attempt === call.attempt ? call : c));
  }
}
