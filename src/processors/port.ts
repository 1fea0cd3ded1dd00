import type { ProcessorName } from '../domain/merchant-settings';
import type { Flow } from '../domain/orders/status';

/**
 * The processor port: what the service asks of whoever moves the money (docs/processors.md). The
 * order and refund workflows never see it; the processor activities (src/activities/processor.ts)
 * call it with card data read from the vault inside the activity, so no card number ever reaches
 * a workflow input, result, history or log.
 */

export type { ProcessorName } from '../domain/merchant-settings';

/**
 * What a decline says about trying again, as the card networks' retry rules need it:
 * - `retryable`: the issuer may approve later (insufficient funds, issuer unavailable, ...);
 * - `hard_decline`: this card will not be approved as it is (lost, stolen, closed, invalid,
 *   card data to be confirmed); retrying is pointless and counts against the merchant;
 * - `do_not_retry`: the issuer or network said never to try this card again (Visa R0/R1/R3,
 *   Mastercard Merchant Advice Code 03/21, Stripe `do_not_try_again`).
 * Across orders, the card's declines also spend its retry budget (src/domain/retry-budget.ts).
 * The workflows retry only `retryable` declines (src/processors/advice.ts).
 */
export type Advice = 'retryable' | 'hard_decline' | 'do_not_retry';

/** Card data from the vault: exists only inside a processor activity. */
export interface CardData {
  pan: string;
  expiryMonth: number;
  expiryYear: number;
}

export interface ChargeRequest {
  /** The id of the call's row in the charges ledger: the same on every re-run, so the processor answers once. */
  idempotencyKey: string;
  card: CardData;
  /** Minor units. */
  amount: number;
  currency: string;
  flow: Flow;
  /** 1 for the first charge the service makes for the order, 2 for its first retry, ... */
  attempt: number;
  threeDSecure: Record<string, unknown> | null;
  /** The cardholder passed the challenge. */
  challengeCompleted?: boolean;
}

export interface Decline {
  result: 'declined';
  /** The network's decline code (ISO 8583 field 39 style, e.g. "51"), as orders report it. */
  code: string;
  advice: Advice;
  /**
   * Mastercard's Merchant Advice Code when the network sent one (two digits: 02 try later, 03/21 do
   * not try again, 24-30 try after a named wait; docs/network-rules.md).
   */
  merchantAdviceCode?: string;
  /** The processor's own words, for logs and support (e.g. Stripe's decline_code). */
  processorCode?: string;
}

export type ChargeOutcome =
  | { result: 'approved'; authorizationId: string }
  | Decline
  | { result: 'challenge_required' }
  /** The processor could not be reached or refused the request itself: nothing was charged. */
  | { result: 'unavailable' };

export interface CaptureRequest {
  idempotencyKey: string;
  authorizationId: string;
  /** Minor units of `currency`, the authorization's. */
  amount: number;
  currency: string;
}

export interface VoidRequest {
  idempotencyKey: string;
  authorizationId: string;
}

export interface RefundRequest {
  /** Our refund id: also the processor's idempotency key. */
  refundId: string;
  authorizationId: string;
  /** Minor units of `currency`, the authorization's (absent in refunds scheduled before it was sent). */
  amount: number;
  currency?: string;
}

/**
 * The processor refused a capture, void or refund for good (a disputed or already refunded
 * charge, an amount it cannot take): the same request again would be refused again. `code` is
 * the processor's own (Stripe's error code), for the logs and the operator.
 */
export class ProcessorRefusal extends Error {
  override name = 'ProcessorRefusal';
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

/**
 * One processor. `sale` charges and captures; `authorize` only authorizes (AUTHORIZATION and
 * Sync MIT). Capture, void and refund take the authorization the same processor issued: `issued`
 * says whether an authorization id is this processor's, so they reach it even after the merchant
 * changed processors. Transport failures are thrown (the activity is retried with the same key);
 * a refusal for good is a ProcessorRefusal.
 */
export interface ProcessorPort {
  readonly name: ProcessorName;
  sale(request: ChargeRequest): Promise<ChargeOutcome>;
  authorize(request: ChargeRequest): Promise<ChargeOutcome>;
  capture(request: CaptureRequest): Promise<{ captureId: string }>;
  void(request: VoidRequest): Promise<void>;
  refund(request: RefundRequest): Promise<{ processorReference: string }>;
  issued(authorizationId: string): boolean;
}
