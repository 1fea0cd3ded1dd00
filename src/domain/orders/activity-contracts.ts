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

export interface ChargeInput {
  /** The processor's idempotency key: `{orderId}:charge:{attempt}`, the same on every re-run. */
  idempotencyKey: string;
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
}

export type ChargeResult =
  | { result: 'approved'; authorizationId: string }
  | { result: 'soft_decline' | 'hard_decline'; code: string }
  | { result: 'challenge_required' }
  | { result: 'unavailable' };
