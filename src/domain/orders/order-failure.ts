import type { ErrorName } from '../error-catalogue';
import type { CommandRefusal } from './contracts';
import type { PaymentField } from './same-payment';
import type { OrderStatusName } from './status';

/**
 * Why an order use case (src/orders/) did not do what it was asked, in the order's own terms:
 * each reason is the name of its entry in the error catalogue (docs/errors.md), but nothing here
 * says how it travels. The API alone turns it into an HTTP status, headers and either dialect's
 * error body (src/api/order-failures.ts).
 */
export type OrderFailureReason =
  /** A field of the request the use case had to look up or compare to refuse. */
  | { reason: 'validation_failed'; field: string; problem: string }
  /** The request names a merchant or site that is not the caller's. */
  | { reason: 'merchant_forbidden'; field: 'mid' | 'siteId'; problem: string }
  /** An AUTHORIZATION evaluate for a merchant without the authorize capability. */
  | { reason: 'authorize_capability_required' }
  /** The order cannot be rescued; the merchant falls back to its decline. */
  | { reason: 'rescue_unavailable' }
  /** A charge or a command may still be running: its outcome is not known yet. */
  | { reason: 'order_outcome_pending' }
  /** Nothing was decided in time; the same request may be sent again. */
  | { reason: 'order_temporarily_unavailable' }
  /** Another command held the order until the deadline. */
  | { reason: 'order_busy' }
  /** No such order (or none evaluated yet) for this merchant. */
  | { reason: 'order_not_found' }
  /** The order disappeared from the read model under the use case: a defect, not the caller's. */
  | { reason: 'internal_error' }
  /** A further evaluate that is another payment than the order's (not a new attempt). */
  | { reason: 'order_request_mismatch'; orderId: string; status: OrderStatusName; differs: PaymentField[] }
  /** A command the order's state refuses, with the order's status now. */
  | { reason: RefusalName; status: OrderStatusName };

/** The catalogue's name of each refusal of the order's workflow (CommandRefusal). */
const REFUSALS = {
  not_capturable: 'order_not_capturable',
  not_cancellable: 'order_not_cancellable',
  not_refundable: 'order_not_refundable',
  refund_exceeds_captured: 'refund_exceeds_captured',
  refund_refused: 'refund_refused_by_processor',
  capture_refused: 'capture_refused_by_processor',
  give_back_refused: 'give_back_refused_by_processor',
  capture_exceeds_authorized: 'capture_exceeds_authorized',
  not_in_challenge: 'order_not_in_challenge',
} as const satisfies Record<CommandRefusal['reason'], ErrorName>;

export type RefusalName = (typeof REFUSALS)[CommandRefusal['reason']];

const REFUSAL_NAMES: ReadonlySet<string> = new Set(Object.values(REFUSALS));

/** Whether a failure is a refusal of the order's state (its answer carries the order's status). */
export function isRefusal(failure: OrderFailureReason): failure is { reason: RefusalName; status: OrderStatusName } {
  return REFUSAL_NAMES.has(failure.reason);
}

/** Thrown by the order use cases: a typed failure, with what the caller is to be told. */
export class OrderFailure extends Error {
  constructor(readonly failure: OrderFailureReason) {
    super(failure.reason);
    this.name = 'OrderFailure';
  }

  get reason(): OrderFailureReason['reason'] {
    return this.failure.reason;
  }
}

/** The failure of a command the order's state refuses (`status`: the order's status now). */
export function refused(reason: CommandRefusal['reason'], status: OrderStatusName): OrderFailure {
  return new OrderFailure({ reason: REFUSALS[reason], status });
}
