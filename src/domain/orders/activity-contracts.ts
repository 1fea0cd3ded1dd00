import type { ChargeKind } from './charge-attempts';
import type { Flow } from './status';

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
};
