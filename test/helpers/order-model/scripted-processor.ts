import type { ProcessorActivities } from '../../../src/activities/processor';
import type { ChargeInput, ChargeResult, LedgerCall } from '../../../src/domain/orders/contracts';
import type { ProcessorAnswer } from './model';

/**
 * The processor activities as a scripted simulator: the test says what the next new charge is
 * answered, and the simulator keeps the processor's promise for idempotency keys (a key sent
 * again replays its first answer and moves no money), counting every call per key so the model
 * test can check one charge per key and one key per charge attempt.
 */
export class ScriptedProcessor {
  /** What the next charge under a new key is answered (set by the test, once per new key). */
  next: ProcessorAnswer = 'soft_decline';
  /** Calls per key, and the charge attempt each charge key was sent for. */
  readonly callsPerKey = new Map<string, number>();
  readonly chargeAttempts = new Map<string, number>();
  private readonly answers = new Map<string, ChargeResult>();
  readonly captures: LedgerCall[] = [];
  readonly voids: LedgerCall[] = [];
  readonly reversals: LedgerCall[] = [];
  readonly refunds = new Map<string, number>();

  /** A new order: nothing sent yet. */
  reset(next: ProcessorAnswer): void {
    this.next = next;
    for (const m of [this.callsPerKey, this.chargeAttempts, this.answers, this.refunds]) m.clear();
    for (const list of [this.captures, this.voids, this.reversals]) list.length = 0;
  }

  /** Charge keys (new charges); the calls made under keys sent more than once. */
  get chargeKeys(): string[] {
    return [...this.chargeAttempts.keys()];
  }

  private count(key: string): number {
    const calls = (this.callsPerKey.get(key) ?? 0) + 1;
    this.callsPerKey.set(key, calls);
    return calls;
  }

  private charge(input: ChargeInput): ChargeResult {
    const key = input.idempotencyKey;
    this.count(key);
    const known = this.answers.get(key);
    if (known) return known;
    const answer = this.next;
    this.next = 'soft_decline';
    this.chargeAttempts.set(key, input.attempt);
    const result = resultOf(answer, key);
    this.answers.set(key, result);
    // Charged, but the answer is lost on the way back: the workflow sends the same key again.
    if (answer === 'approved_after_timeout') throw new Error('processor read timeout (scripted)');
    return result;
  }

  activities(): ProcessorActivities {
    return {
      processorCharge: async (input: ChargeInput) => this.charge(input),
      processorCapture: async ({ call }: { call: LedgerCall }) => {
        if (this.count(call.key) === 1) this.captures.push(call);
        return { captureId: `cap-${call.key}`, key: call.key };
      },
      processorVoid: async ({ call }: { call: LedgerCall }) => {
        if (this.count(call.key) === 1) this.voids.push(call);
        return { key: call.key };
      },
      processorReverse: async ({ call }: { call: LedgerCall }) => {
        if (this.count(call.key) === 1) this.reversals.push(call);
        return { key: call.key };
      },
      processorRefund: async (input: { refundId: string; amount: number }) => {
        if (this.count(input.refundId) === 1) this.refunds.set(input.refundId, input.amount);
        return { processorReference: `rf_${input.refundId}` };
      },
    } as unknown as ProcessorActivities;
  }
}

function resultOf(answer: ProcessorAnswer, key: string): ChargeResult {
  switch (answer) {
    case 'approved':
    case 'approved_after_timeout':
      return { result: 'approved', authorizationId: `auth-${key}` };
    case 'soft_decline':
      return { result: 'soft_decline', code: '51', advice: 'retryable' };
    case 'hard_decline':
      return { result: 'hard_decline', code: '54', advice: 'hard_decline' };
    case 'challenge_required':
      return { result: 'challenge_required' };
    case 'unavailable':
      return { result: 'unavailable' };
  }
}
