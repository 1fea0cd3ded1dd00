import type { ChargeAttempt, ChargeKind } from './charge-attempts';
import type { OrderState } from './order-state';
import type { Flow, OrderStatusName } from './status';

/** What the order workflow's scoring and charging activities take and give back (tokens only). */

export interface ScoreInput {
  /** The verification value was sent with this evaluate (a signal only; absent on older orders). */
  cvvPresent?: boolean;
  merchantId: string;
  flow: Flow;
  amount: number;
  currency: string;
  responseCode: string | null;
  attemptCount: number | null;
  isMIT: boolean;
  isRecurring: boolean;
  bin: string;
  senseKey: string | null;
  externalOrderId: string;
}

export interface ScoreResult {
  decision: 'approve' | 'decline';
  score: number;
  reasons: string[];
  deviceSignalsUsed: boolean;
}

/**
 * A processor call of an order as the charges ledger records it (src/db/repositories/charges.ts):
 * `key` is the id its ledger row gets if it has none yet (the workflow's, stable on replay); the
 * row's id is the idempotency key the processor is sent.
 */
export interface LedgerCall {
  key: string;
  orderId: string;
  merchantId: string;
  externalOrderId: string;
  kind: ChargeKind;
  attempt: number;
  amount: number;
  currency: string;
}

/** What a call through the ledger answers besides its result: the key it was sent under. */
export interface LedgerAnswer {
  key: string;
}

export interface ChargeInput {
  /** The ledger row's id if it has none yet (see LedgerCall.key); the processor gets the row's id. */
  idempotencyKey: string;
  orderId: string;
  externalOrderId: string;
  merchantId: string;
  cardToken: string;
  amount: number;
  currency: string;
  mode: 'sale' | 'authorize';
  flow: Flow;
  /** 1 for the first charge the service makes for this order, 2 for its first retry, ... */
  attempt: number;
  threeDSecure: Record<string, unknown> | null;
  /** The cardholder passed the challenge (the network then authenticates the charge). */
  challengeCompleted?: boolean;
  /** The workflow's time of the attempt: the networks' rolling counts use it (absent in older histories). */
  attemptedAtUtc?: string;
  /**
   * The first evaluate's charge: the order its answer decides, recorded with the answer
   * (`decide`), or only taken up if an earlier send recorded it (`adopt`: a run closing
   * undecided). Absent: the answer alone is recorded, and the workflow commits what it decides.
   */
  decides?: DecisionPlan & { mode: 'decide' | 'adopt' };
  /**
   * A send that settles a charge left unanswered (sent again under its key to learn its outcome):
   * "unavailable" then says nothing of it, so the ledger keeps the row unknown, and a later send
   * under the key can still record the processor's answer (absent: any answer is recorded).
   */
  settling?: boolean;
}

/** What the activity needs to decide the first evaluate's order as the workflow would (Order.commit). */
export interface DecisionPlan {
  /** The draft the answer decides. */
  draft: OrderState;
  /** The transition's from: none, or the status a new attempt of the order resumed. */
  from: OrderStatusName | null;
  /** The order's processor calls, this charge among them as sent. */
  calls: ChargeAttempt[];
  captureWindowMinutes: number;
}

export type ChargeResult = (
  | { result: 'approved'; authorizationId: string }
  | { result: 'soft_decline' | 'hard_decline'; code: string }
  | { result: 'challenge_required' }
  | { result: 'unavailable' }
) & {
  /** The ledger row's id, the key the processor was sent (absent from fakes that keep no ledger). */
  key?: string;
  /** A decline's advice as the processor adapter reported it (src/processors/port.ts, Advice). */
  advice?: string;
  /**
   * What the answer decided, durable with it (ChargeInput.decides): the changes and the time the
   * order's next state was made with. The workflow makes the same state from its draft and adopts it.
   */
  decided?: { changes: Partial<OrderState>; atUtc: string };
};
