/**
 * Failure types that cross between activities, workflows and the API (ApplicationFailure.type).
 * Plain strings so workflow code can name them without importing activity code.
 */
export const FAILURE = {
  /** Our database did not answer: retried; a caller waiting is told 503 with Retry-After. */
  storeUnavailable: 'StoreUnavailable',
  /** Our database refused the write itself (bad data): never retried, the command fails. */
  persistenceRejected: 'PersistenceRejected',
  /** An order command arrived while another one on the same order was running: try again. */
  orderBusy: 'OrderBusy',
  /**
   * A further evaluate that is another payment (amount, currency or card) and not a new attempt;
   * its details carry `{ differs, orderId, status }`. Turned away by the evaluate validator.
   */
  orderRequestMismatch: 'OrderRequestMismatch',
  /** A command for an order whose first evaluate has not been decided yet. */
  orderNotEvaluated: 'OrderNotEvaluated',
  /** An Update the workflow took up after its caller stopped waiting (CallerDeadline): not run. */
  callerGone: 'CallerGone',
  /** A step a caller was waiting on could not finish in time; nothing was decided: try again. */
  temporarilyUnavailable: 'TemporarilyUnavailable',
  /**
   * The processor did not answer a charge a caller was waiting on: it may have charged. The
   * caller is told the outcome is not known yet; its retry charges again under the same
   * processor key, which answers the first charge's outcome rather than charging twice.
   */
  chargeOutcomeUnknown: 'ChargeOutcomeUnknown',
  /**
   * The charges ledger refused a charge's intent: the externalOrderId's order is another run's
   * (two evaluates restarted an unevaluated id at once). Nothing was sent; the caller answers
   * from the read model.
   */
  externalOrderTaken: 'ExternalOrderTaken',
  /**
   * The processor refused a refund for good (a disputed or already refunded charge): never
   * retried; the refund workflow releases its reservation and the refund is refused.
   */
  processorRefused: 'ProcessorRefused',
  /**
   * A card charge or a refund first sent longer ago than KEY_RESEND_LIMIT_MS was not sent again:
   * the processor may have forgotten its key and would charge (refund) anew. Its outcome stays
   * unknown, for an operator (docs/runbook.md).
   */
  chargeKeyExpired: 'ChargeKeyExpired',
} as const;
