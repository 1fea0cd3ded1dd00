import { adviceForMerchantAdviceCode, adviceForNetworkCode } from './advice';
import type { Advice, Decline } from './port';

/**
 * Stripe's card_error fields (https://docs.stripe.com/declines/codes, /api/errors). `decline_code`
 * is Stripe's name for the issuer's reason, `advice_code` Stripe's retry advice, and
 * `network_decline_code` the network's own response code when Stripe passes it on.
 */
export interface StripeDeclineFields {
  code?: string | null;
  decline_code?: string | null;
  advice_code?: string | null;
  network_decline_code?: string | null;
  /** Mastercard's Merchant Advice Code as Stripe passes it on (`network_advice_code`). */
  network_advice_code?: string | null;
}

const R = 'retryable' as const;
const H = 'hard_decline' as const;
const X = 'do_not_retry' as const;

/** Stripe decline code -> the network response code orders report, and its advice. */
const STRIPE_DECLINES: Readonly<Record<string, readonly [string, Advice]>> = {
  approve_with_id: ['08', R],
  authentication_required: ['1A', H], // off-session retries cannot authenticate the cardholder
  call_issuer: ['01', R],
  card_decline_rate_limit_exceeded: ['65', R],
  card_not_supported: ['57', H],
  card_velocity_exceeded: ['65', R],
  currency_not_supported: ['57', H],
  do_not_honor: ['05', R],
  do_not_try_again: ['05', X],
  duplicate_transaction: ['94', H],
  expired_card: ['54', H],
  fraudulent: ['59', H],
  generic_decline: ['05', R],
  incorrect_cvc: ['N7', H],
  incorrect_number: ['14', H],
  incorrect_pin: ['55', H],
  incorrect_zip: ['05', H],
  insufficient_funds: ['51', R],
  invalid_account: ['14', H],
  invalid_amount: ['13', H],
  invalid_cvc: ['N7', H],
  invalid_expiry_month: ['54', H],
  invalid_expiry_year: ['54', H],
  invalid_number: ['14', H],
  invalid_pin: ['55', H],
  issuer_not_available: ['91', R],
  lost_card: ['41', H],
  merchant_blacklist: ['05', H],
  new_account_information_available: ['05', H],
  no_action_taken: ['05', R],
  not_permitted: ['57', H],
  pickup_card: ['04', H],
  pin_try_exceeded: ['75', H],
  processing_error: ['96', R],
  reenter_transaction: ['19', R],
  restricted_card: ['62', H],
  revocation_of_all_authorizations: ['R3', X],
  revocation_of_authorization: ['R1', X],
  security_violation: ['63', H],
  service_not_allowed: ['57', H],
  stolen_card: ['43', H],
  stop_payment_order: ['R0', X],
  testmode_decline: ['05', H], // a Stripe test card used with a live key
  transaction_not_allowed: ['57', H],
  try_again_later: ['19', R],
  withdrawal_count_limit_exceeded: ['65', R],
};

/** Stripe's advice_code wins when present: it is the issuer's own word on retrying. */
const ADVICE_CODES: Readonly<Record<string, Advice>> = {
  try_again_later: R,
  do_not_try_again: X,
  confirm_card_data: H, // the same card data will not be approved: the cardholder must update it
};

/** The advice that forbids more: do not retry, then hard decline, then retryable. */
function stricter(...advice: Array<Advice | undefined>): Advice | undefined {
  return [X, H, R].find((a) => advice.includes(a));
}

/**
 * A Stripe card decline in our terms. Precedence: Stripe's advice_code, then the stricter of the
 * network's code and the decline_code (or the error code when Stripe gives none): the issuer's
 * own code saying a card is lost, stolen, expired or closed forbids what a soft decline_code
 * (`generic_decline`, `insufficient_funds`) would allow, and the other way round. Unknown codes
 * are retryable "05" (do not honour): the networks' default for a decline without a reason. A
 * Mastercard Merchant Advice Code 03 or 21 (never try again), or 01 (new card data), wins over all.
 */
export function declineFromStripe(fields: StripeDeclineFields): Decline {
  const reason = fields.decline_code || fields.code || undefined;
  const known = reason ? STRIPE_DECLINES[reason] : undefined;
  const network = fields.network_decline_code?.trim() || undefined;
  const code = network ?? known?.[0] ?? '05';
  const fromAdvice = fields.advice_code ? ADVICE_CODES[fields.advice_code] : undefined;
  const networkAdvice = network ? adviceForNetworkCode(network) : undefined;
  const mac = fields.network_advice_code?.trim() || undefined;
  const issuerAdvice = fromAdvice ?? stricter(networkAdvice, known?.[1]) ?? adviceForNetworkCode(code);
  const advice = (mac && stricter(adviceForMerchantAdviceCode(mac), issuerAdvice)) || issuerAdvice;
  return {
    result: 'declined',
    code,
    advice,
    ...(mac ? { merchantAdviceCode: mac } : {}),
    ...(reason ? { processorCode: reason } : {}),
  };
}
