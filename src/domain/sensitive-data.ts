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

/**
 * A UUID is never a card number, but its dash-joined groups can hold 13 or more digits that pass
 * Luhn (about 1 random UUID in 500): left alone, so request and order ids stay whole in logs and
 * free text with an id in it is not refused.
 */
const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const UUIDS = new RegExp(UUID, 'g');

// 13 to 19 digits, optionally grouped by single spaces or dashes, not inside a longer number;
// a UUID is matched first (the first alternative) and kept as it is.
const UUID_OR_PAN_CANDIDATE = new RegExp(`(${UUID})|(?<![\\d])(?:\\d[ -]?){12,18}\\d(?![\\d])`, 'g');

/** Replaces anything that looks like a card number (13-19 digits passing Luhn) by BIN****last4. */
export function maskCardNumbers(text: string): string {
  return text.replace(UUID_OR_PAN_CANDIDATE, (match, uuid: string | undefined) => {
    if (uuid) return match;
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

const isDigit = (c: string) => c >= '0' && c <= '9';
/** What people type between the groups of a card number. */
const isSeparator = (c: string) => c === ' ' || c === '-' || c === '\u00a0';

/**
 * Whether `text` contains what looks like a card number: 13 to 19 digits passing the Luhn check,
 * as one run of digits or as groups joined by single spaces or dashes ("4111 1111 1111 1111",
 * "4111-1111-1111-1111"). A candidate starts and ends at a group boundary (a card number is not
 * looked for inside a longer unbroken run of digits) and does not start with 0 (no issued card
 * number does), which keeps ordinary numbers in prose from being refused.
 */
export function containsCardNumber(original: string): boolean {
  const text = original.replace(UUIDS, ' ');
  let i = 0;
  while (i < text.length) {
    if (!isDigit(text.charAt(i))) {
      i++;
      continue;
    }
    // One chain: digit groups joined by single separators.
    const groups: string[] = [];
    for (;;) {
      let group = '';
      while (i < text.length && isDigit(text.charAt(i))) group += text.charAt(i++);
      groups.push(group);
      if (i + 1 < text.length && isSeparator(text.charAt(i)) && isDigit(text.charAt(i + 1))) i++;
      else break;
    }
    for (let start = 0; start < groups.length; start++) {
      let digits = '';
      for (let end = start; end < groups.length && digits.length < 19; end++) {
        digits += groups[end];
        if (digits.length >= 13 && digits.length <= 19 && digits[0] !== '0' && passesLuhn(digits)) return true;
      }
    }
  }
  return false;
}
