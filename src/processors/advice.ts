import type { ChargeResult } from '../domain/orders/contracts';
import { declineCategory } from '../domain/orders/decline-codes';
import type { Advice, ChargeOutcome } from './port';

/**
 * Advice for a network decline code alone: do-not-retry codes (Visa R0/R1/R3) and hard codes
 * (lost, stolen, closed, ...) are never retried; everything else may be (src/domain/orders/decline-codes.ts).
 */
export function adviceForNetworkCode(code: string): Advice {
  if (/^R[013]$/i.test(code.trim())) return 'do_not_retry';
  return declineCategory(code) === 'hard' ? 'hard_decline' : 'retryable';
}

/**
 * Mastercard's Merchant Advice Codes: 03 (do not try again) and 21 (payment cancelled) forbid any
 * retry; 01 (new account information available) will not be approved with the card data the
 * merchant holds, so it is a hard decline (the merchant asks the cardholder for the new data).
 */
export function adviceForMerchantAdviceCode(mac: string): Advice {
  const code = mac.trim();
  if (code === '03' || code === '21') return 'do_not_retry';
  return code === '01' ? 'hard_decline' : 'retryable';
}

/**
 * A port outcome as the order workflow reads it. The workflow retries a `soft_decline` on the
 * async MIT schedule and never a `hard_decline` (src/workflows/order/phases.ts), so every advice
 * that forbids a retry (hard decline, do not retry) becomes `hard_decline`.
 */
export function chargeResultOf(outcome: ChargeOutcome): ChargeResult {
  if (outcome.result !== 'declined') return outcome;
  return { result: outcome.advice === 'retryable' ? 'soft_decline' : 'hard_decline', code: outcome.code };
}
