import type { OrderSettings } from '../merchant-settings';
import type { RetryBudget } from '../retry-budget';
import type { ScoreResult } from './activity-contracts';
import type { Flow, OrderStatusName, Outcome } from './status';

// The order's state and the activities' inputs and results, re-exported: this file stays the one
// place to import the workflow's contracts from.
export type {
  ChargeInput,
  ChargeResult,
  DecisionPlan,
  LedgerAnswer,
  LedgerCall,
  ScoreInput,
  ScoreResult,
} from './activity-contracts';
export type { OrderState, PersistOrderInput } from './order-state';

/**
 * What crosses the boundary of the order workflow. Tokens and ids only: no card number, CVV or
 * raw personal data ever enters a workflow input, result or history.
 */

export interface OrderWorkflowInput {
  orderId: string;
  orderSessionKey: string;
  merchantId: string;
  partnerId: string;
  externalOrderId: string;
  isTestMode: boolean;
  /**
   * A new attempt on an order that was declined (a further evaluate with a higher attemptCount):
   * the run continues that order (same orderId) from its read-model version, and its charges
   * count on from the attempts already made, so the processor sees new idempotency keys.
   */
  resume?: OrderResume;
  /**
   * The run's first evaluate: its charge records the order it decides, with the processor's
   * answer (ChargeInput.decides). Absent in runs started before 2026-11-27, which commit that
   * order from the workflow as they did: their histories replay (docs/changing-workflows.md).
   */
  chargeRecordsDecision?: boolean;
}

export interface OrderResume {
  status: OrderStatusName;
  version: number;
  serviceAttempts: number;
  createdAtUtc: string;
}

/**
 * Carried by every Update the API sends an order: when its caller stops waiting (ISO 8601, a little
 * before the API's deadline). An Update the workflow takes up later is turned away unrun, so the
 * 503 the caller got ("nothing was decided") stays true. Absent in older histories: no limit.
 */
export interface CallerDeadline {
  answerBy?: string;
}

/** The first evaluate (and any further one) as the API hands it to the workflow. */
export interface EvaluateInput extends CallerDeadline {
  /** API time of receipt; the workflow uses its own clock for windows. */
  receivedAtUtc: string;
  /**
   * The caller's idempotencyKey: the same evaluate sent again (a retry whose first answer was lost
   * with a crashed API process) is answered as the first time, never taken as a further evaluate.
   */
  idempotencyKey?: string;
  flow: Flow;
  transactionType: 'SALE' | 'AUTHORIZATION';
  isMIT: boolean;
  isRecurring: boolean;
  intervalCount: number | null;
  attemptCount: number | null;
  expiryDateUtc: string | null;
  declinedAtUtc: string;
  amount: number;
  currency: string;
  responseCode: string | null;
  card: { token: string; brand: string; bin: string; last4: string };
  senseKey: string | null;
  siteId: string | null;
  threeDSecure: Record<string, unknown> | null;
  /** Whether the merchant sent the card's verification value (never the value: CVV is not retained). */
  cvvPresent?: boolean;
  /** The merchant's settings the order runs by; no contact data (it would stay in every history). */
  settings: OrderSettings;
  /** The rescue score, from the API (src/orders/device-signals.ts). */
  scored: ScoreResult;
  /**
   * The card's retry budget at receipt (docs/network-rules.md), read by the API with the evaluate's
   * other reads for a vaulted token: the first evaluate then needs no read of its own. Absent (a
   * card number, histories from before): the workflow reads it.
   */
  cardBudget?: RetryBudget | null;
}

export type EvaluateResult =
  | { kind: 'answer'; orderId: string; orderSessionKey: string; outcome: Outcome; status: OrderStatusName }
  | { kind: 'rescue_unavailable'; orderId: string };

export type CommandRefusal = {
  kind: 'refused';
  reason:
    | 'not_capturable'
    | 'not_in_challenge'
    | 'not_cancellable'
    | 'not_refundable'
    | 'refund_exceeds_captured'
    | 'refund_refused'
    | 'capture_refused'
    | 'give_back_refused'
    | 'capture_exceeds_authorized';
  status: OrderStatusName;
};

export type CaptureResult = { kind: 'captured'; status: OrderStatusName; capturedAmount: number } | CommandRefusal;

export interface CaptureInput extends CallerDeadline {
  amount: number | null;
}

export interface CancelInput extends CallerDeadline {
  via: 'cancel' | 'external-cancel';
}
export type CancelResult = { kind: 'cancelled'; status: 'Cancelled' } | CommandRefusal;

export type ChallengeReport = 'attempted' | 'passed' | 'failed';
export interface ChallengeInput extends CallerDeadline {
  result: ChallengeReport;
}
export type ChallengeResult = { kind: 'recorded'; status: OrderStatusName; outcome: Outcome | null } | CommandRefusal;

/**
 * A refund as the refund workflow runs it (src/workflows/refund.ts). `refundId` is derived from
 * the refund itself (order + idempotencyKey, or order + "full"), so the same refund asked twice is
 * one ledger row, one processor call (its idempotency key) and one order.refunded.
 */
export interface RefundRequest extends CallerDeadline {
  refundId: string;
  orderId: string;
  merchantId: string;
  kind: 'full' | 'partial';
  /** Minor units; null means "the whole captured amount not yet refunded" (a full refund). */
  amount: number | null;
  idempotencyKey: string | null;
}
export type RefundResult =
  | {
      kind: 'refunded';
      transactionId: string;
      amount: number;
      refundedAmount: number;
      status: OrderStatusName;
      replayed: boolean;
    }
  /** Taken up after its caller stopped waiting (CallerDeadline): nothing was done. */
  | { kind: 'caller_gone'; answerBy: string }
  | CommandRefusal;
