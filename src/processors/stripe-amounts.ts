import { minorUnitExponent } from '../domain/money';

/**
 * Stripe's amount for ours. Ours are ISO 4217 minor units (src/domain/money.ts); Stripe's differ
 * for a few currencies (docs.stripe.com/currencies):
 * - its zero-decimal currencies take whole units, MGA among them, which ISO gives two decimals;
 * - ISK keeps two decimals at Stripe (100 is one króna, whole krónur only), none in ISO;
 * - its three-decimal currencies take only amounts whose last digit is 0.
 * Undefined when Stripe cannot take the amount exactly: it is never rounded, so never charged wrong.
 */
export function stripeAmount(amount: number, currency: string): number | undefined {
  const code = currency.toUpperCase();
  const stripeExponent = STRIPE_ZERO_DECIMAL.has(code) ? 0 : STRIPE_THREE_DECIMAL.has(code) ? 3 : 2;
  const shift = stripeExponent - minorUnitExponent(code);
  const scaled = shift >= 0 ? amount * 10 ** shift : amount / 10 ** -shift;
  if (!Number.isSafeInteger(scaled)) return undefined;
  // A three-decimal currency to the nearest ten of its minor unit (ISK's whole krónur are ours already).
  if (STRIPE_THREE_DECIMAL.has(code) && scaled % 10 !== 0) return undefined;
  return scaled;
}

/** Stripe's authorizations are its PaymentIntents. */
export function isStripeAuthorization(authorizationId: string): boolean {
  return authorizationId.startsWith('pi_');
}

/**
 * Whether the processor that issued `authorizationId` can capture or refund `amount` exactly: a
 * Stripe PaymentIntent only what stripeAmount converts; the sandbox anything. The API refuses
 * any other amount before anything is reserved (it would be refused at Stripe for good).
 */
export function processorTakesAmount(authorizationId: string | null, amount: number, currency: string): boolean {
  if (!authorizationId || !isStripeAuthorization(authorizationId)) return true;
  return stripeAmount(amount, currency) !== undefined;
}

const STRIPE_ZERO_DECIMAL = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'JPY',
  'KMF',
  'KRW',
  'MGA',
  'PYG',
  'RWF',
  'UGX',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);

const STRIPE_THREE_DECIMAL = new Set(['BHD', 'JOD', 'KWD', 'OMR', 'TND']);
