/**
 * What counts as sensitive, and how it is masked before anything leaves the process (logs, error
 * bodies). Pure functions: shared by the logger and by anything that echoes input back.
 */

/** Keys whose values are never logged, whatever their nesting (compared case-insensitively). */
const SENSITIVE_KEY =
  /^(authorization|cookie|set-cookie|password|secret|client_?secret|.*_secret|.*Secret|access_?token|refresh_?token|token|tokenization_?key|x-tokenization-key|card_?number|cardNumber|pan|cvv|cvc|cvv2|security_?code|verification_?value|verificationValue|signing_?secret)$/i;

export const REDACTED = '[REDACTED]';

export function isSensitiveKey(key: string): boolean {
  return SENSITIVE_KEY.test(key);
}

/** Luhn check over a string of digits. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return digits.length > 0 && sum % 10 === 0;
}

// 13 to 19 digits, optionally grouped by single spaces or dashes, not inside a longer number.
const PAN_CANDIDATE = /(?<![\d])(?:\d[ -]?){12,18}\d(?![\d])/g;

/** Replaces anything that looks like a card number (13-19 digits passing Luhn) by BIN****last4. */
export function maskCardNumbers(text: string): string {
  return text.replace(PAN_CANDIDATE, (match) => {
    const digits = match.replace(/[ -]/g, '');
    if (!passesLuhn(digits)) return match;
    return `${digits.slice(0, 6)}******${digits.slice(-4)}`;
  });
}

/** Deep copy of a value with sensitive keys redacted and card numbers masked in strings. */
export function scrub(value: unknown, depth = 0): unknown {
  if (depth > 8) return '[Truncated]';
  if (typeof value === 'string') return maskCardNumbers(value);
  if (typeof value === 'number' && Number.isInteger(value) && value > 1e12) {
    return maskCardNumbers(String(value)) === String(value) ? value : REDACTED;
  }
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1));
  if (value instanceof Error) {
    return {
      type: value.name,
      message: maskCardNumbers(value.message),
      stack: value.stack && maskCardNumbers(value.stack),
    };
  }
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = isSensitiveKey(k) ? REDACTED : scrub(v, depth + 1);
    }
    return out;
  }
  return value;
}
