import { passesLuhn } from './sensitive-data';

/** Card brands the vault accepts, by IIN range and allowed lengths. */
export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'discover' | 'diners' | 'jcb';

const BRANDS: Array<{ brand: CardBrand; matches: (pan: string) => boolean; lengths: number[] }> = [
  { brand: 'amex', matches: (p) => /^3[47]/.test(p), lengths: [15] },
  { brand: 'diners', matches: (p) => /^(30[0-5]|309|36|3[89])/.test(p), lengths: [14, 16, 19] },
  { brand: 'jcb', matches: (p) => inRange(p, 4, 3528, 3589), lengths: [16, 17, 18, 19] },
  {
    brand: 'mastercard',
    matches: (p) => inRange(p, 2, 51, 55) || inRange(p, 4, 2221, 2720),
    lengths: [16],
  },
  {
    brand: 'discover',
    matches: (p) => /^(6011|65)/.test(p) || inRange(p, 3, 644, 649) || inRange(p, 6, 622126, 622925),
    lengths: [16, 17, 18, 19],
  },
  { brand: 'visa', matches: (p) => p.startsWith('4'), lengths: [13, 16, 19] },
];

function inRange(pan: string, digits: number, low: number, high: number): boolean {
  const prefix = Number(pan.slice(0, digits));
  return pan.length >= digits && prefix >= low && prefix <= high;
}

export type CardCheck =
  | { ok: true; pan: string; brand: CardBrand }
  | { ok: false; problem: 'format' | 'luhn' | 'brand' | 'length' };

/** Normalises (spaces and dashes removed) and checks a card number: digits, brand, length, Luhn. */
export function checkCardNumber(input: string): CardCheck {
  const pan = input.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(pan)) return { ok: false, problem: 'format' };
  const rule = BRANDS.find((b) => b.matches(pan));
  if (!rule) return { ok: false, problem: 'brand' };
  if (!rule.lengths.includes(pan.length)) return { ok: false, problem: 'length' };
  if (!passesLuhn(pan)) return { ok: false, problem: 'luhn' };
  return { ok: true, pan, brand: rule.brand };
}

/**
 * How long after its expiry month has ended (UTC) an evaluate still takes a card number: the
 * issuer's own last day may end up to 14 hours later, and a retry under its idempotency key
 * (kept 24 hours) of an evaluate sent before must run as the first did, not turn into 400
 * `400012` while the first's charge stands. A charge on a card the issuer holds expired is
 * declined by the processor. Tokenize keeps the strict check.
 */
export const EVALUATE_EXPIRY_GRACE_MS = 24 * 3_600_000;

/** A card is usable through the last day of its expiry month (UTC). */
export function isExpired(month: number, year: number, now: Date): boolean {
  const firstDayAfter = Date.UTC(year, month, 1); // month is 1-based: Date.UTC(y, 12, 1) = next January
  return now.getTime() >= firstDayAfter;
}

/** The sandbox's test cards live in their own file; re-exported for the card checks' callers. */
export { isSandboxTestCard, SANDBOX_TEST_CARDS } from './sandbox-cards';
