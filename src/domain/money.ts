/**
 * Money: integers in minor units everywhere inside the service. The one place major units come
 * in is refund's `amountToRefund` (the interface states dollars); it is converted exactly, from
 * its decimal text, never through floating-point arithmetic.
 */

/** ISO 4217 currencies we accept, with their minor-unit exponent (default 2). */
const EXPONENT: Record<string, number> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
};

const KNOWN = new Set<string>(Intl.supportedValuesOf('currency'));

export function isCurrency(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && KNOWN.has(code);
}

export function minorUnitExponent(currency: string): number {
  return EXPONENT[currency] ?? 2;
}

/** The currencies whose minor-unit exponent is not 2 (the dashboard formats amounts with them). */
export const MINOR_UNIT_EXCEPTIONS: Readonly<Record<string, number>> = EXPONENT;

/**
 * "12.34" or 12.34 in major units -> 1234 minor units (USD). Undefined when the value is not a
 * plain non-negative decimal or has more decimals than the currency has minor units.
 */
export function majorToMinor(value: unknown, currency: string): number | undefined {
  const text =
    typeof value === 'number'
      ? Number.isFinite(value)
        ? String(value)
        : ''
      : typeof value === 'string'
        ? value.trim()
        : '';
  const match = /^(\d{1,15})(?:\.(\d+))?$/.exec(text);
  if (!match) return undefined;
  const exponent = minorUnitExponent(currency);
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > exponent) return undefined;
  const minor = Number(match[1]) * 10 ** exponent + Number(fraction.padEnd(exponent, '0') || '0');
  return Number.isSafeInteger(minor) ? minor : undefined;
}
