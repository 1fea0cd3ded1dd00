import type { ErrorDefinition } from './definition';

/** Orders: lookup, commands refused by the order state, chargebacks, rescue unavailable. */
export const ORDER_ERRORS = {
  authorize_capability_required: {
    id: '403003',
    status: 403,
    message: 'transactionType AUTHORIZATION needs the authorize capability on the merchant account.',
    retry: 'no',
  },
  order_not_found: { id: '404003', status: 404, message: 'The specified order could not be located.', retry: 'no' },
  order_not_capturable: {
    id: '409004',
    status: 409,
    message: 'The order is not waiting for a capture (or its capture window has closed).',
    retry: 'no',
  },
  order_not_cancellable: {
    id: '409005',
    status: 409,
    message: 'The order cannot be cancelled in its current status.',
    retry: 'no',
  },
  refund_exceeds_captured: {
    id: '409006',
    status: 409,
    message: 'The refund would exceed the captured amount not yet refunded.',
    retry: 'no',
  },
  order_not_refundable: {
    id: '409007',
    status: 409,
    message: 'Only a completed order can be refunded, within 180 days of completion.',
    retry: 'no',
  },
  capture_exceeds_authorized: {
    id: '409008',
    status: 409,
    message: 'The capture amount exceeds the authorized amount.',
    retry: 'no',
  },
  refund_refused_by_processor: {
    id: '409011',
    status: 409,
    message:
      'The processor refused the refund for good (the charge is disputed, or already refunded at the processor); nothing was refunded.',
    retry: 'no',
  },
  capture_refused_by_processor: {
    id: '409012',
    status: 409,
    message:
      'The processor refused the capture for good (the authorization was released or cancelled at the processor); nothing was captured, and the order still awaits capture until its deadline.',
    retry: 'no',
  },
  give_back_refused_by_processor: {
    id: '409013',
    status: 409,
    message:
      'The processor refused for good to void the authorization or refund the charge (it was captured or changed at the processor outside this service); nothing was cancelled, the money stands, and the order is left to an operator (PROBLEM).',
    retry: 'no',
  },
  order_busy: {
    id: '409009',
    status: 409,
    message: 'Another command on this order is still running. Retry shortly (with the same idempotencyKey).',
    retry: 'backoff',
  },
  order_request_mismatch: {
    id: '409010',
    status: 409,
    message:
      'A further evaluate for this order has a different amount, currency or card than the order, and is not a new attempt (a higher attemptCount): it would not be the same payment. Send it under a new orderId, or as a new attempt.',
    retry: 'no',
  },
  order_not_in_challenge: {
    id: '409021',
    status: 409,
    message: 'The order is not waiting for a cardholder challenge.',
    retry: 'no',
  },
  chargeback_not_reversible: {
    id: '409022',
    status: 409,
    message: 'Only a received chargeback can be reversed.',
    retry: 'no',
  },
  rescue_unavailable: {
    id: '503002',
    status: 503,
    message: 'Rescue is unavailable for this transaction. Fall back to the original decline; do not retry.',
    retry: 'no',
  },
  order_outcome_pending: {
    id: '500010',
    status: 500,
    message:
      'The order was still being decided when the deadline came (the processor or a worker was slow); its outcome is not known yet. Retry with the same idempotencyKey to receive it.',
    retry: 'backoff',
  },
  order_temporarily_unavailable: {
    id: '503010',
    status: 503,
    message:
      'The order could not be decided in time (a dependency did not answer); nothing was decided. Retry after the Retry-After period with the same idempotencyKey.',
    retry: 'retry-after',
  },
} as const satisfies Record<string, ErrorDefinition>;
