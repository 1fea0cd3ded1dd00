import type { ChargeAttempt } from './charge-attempts';
import type { EventToPersist } from './domain-events';
import type { Flow, OrderStatusName, Outcome } from './status';

/** The order as the workflow knows it; the read model (orders table) mirrors it. */
export interface OrderState {
  /** Incremented on every durable write; the read model keeps the highest (retries are harmless). */
  version: number;
  orderId: string;
  orderSessionKey: string;
  merchantId: string;
  partnerId: string;
  externalOrderId: string;
  isTestMode: boolean;
  flow: Flow;
  transactionType: 'SALE' | 'AUTHORIZATION';
  isMIT: boolean;
  isRecurring: boolean;
  status: OrderStatusName;
  outcome: Outcome | null;
  amount: number;
  currency: string;
  authorizedAmount: number;
  capturedAmount: number;
  refundedAmount: number;
  card: { token: string; brand: string; bin: string; last4: string };
  senseKey: string | null;
  responseCode: string | null;
  attemptCount: number | null;
  /** Charge attempts the service made for this order. */
  serviceAttempts: number;
  /**
   * Set when the order became Problem over a charge that may stand: one the processor never
   * answered, or an approval it refused for good to give back (since 2026-11-29). Unset when the
   * processor refused the charge itself (nothing charged). Absent in states written before.
   */
  chargeOutcomeUnknown?: boolean;
  /**
   * The processor calls this run made (src/domain/orders/charge-attempts.ts), as recorded with this
   * state; the read model shows every run's, from the charges ledger.
   */
  attempts: ChargeAttempt[];
  /**
   * The card networks' retry budget held the next async MIT retry back until `until` by `rule`
   * (docs/network-rules.md); absent when it never did.
   */
  retryHold?: { until: string; rule: string };
  declinedAtUtc: string;
  windowEndsAtUtc: string | null;
  captureBeforeUtc: string | null;
  confirmationId: string | null;
  authorizationId: string | null;
  score: number | null;
  reasons: string[];
  deviceSignalsUsed: boolean;
  createdAtUtc: string;
  updatedAtUtc: string;
  completedAtUtc: string | null;
  cancelledAtUtc: string | null;
  expiredAtUtc: string | null;
}

/**
 * One durable write of the read model: the state, its transition and its events, together. Event
 * ids are derived from (order, version, position) by the activity, so a re-run writes the same rows.
 */
export interface PersistOrderInput {
  state: OrderState;
  transition: { from: OrderStatusName | null; to: OrderStatusName; reason: string } | null;
  events: EventToPersist[];
}
