import { passesLuhn } from '../../src/domain/sensitive-data';

/** Issued secrets by their prefixes, and card numbers (13-19 digits passing Luhn). */
const SECRET = /\b(sk_(?:sandbox|live)|tk_(?:sandbox|live)|at)_[A-Za-z0-9_-]{30,}/g;
const DIGITS = /(?<!\d)\d{13,19}(?!\d)/g;

/**
 * Where sensitive values appear in `text`: each finding is described (kind and position), never
 * quoted, so a failure report does not leak what it found.
 */
export function findSensitive(text: string): string[] {
  const findings: string[] = [];
  for (const m of text.matchAll(SECRET)) findings.push(`${m[1]} secret at offset ${m.index}`);
  for (const m of text.matchAll(DIGITS)) {
    if (passesLuhn(m[0]) && !insideHexDigest(text, m.index, m[0].length))
      findings.push(`card number (BIN ${m[0].slice(0, 6)}) at offset ${m.index}`);
  }
  return findings;
}

/**
 * Whether the digits at [start, start + length) are part of a longer lower-case hex token (a
 * content hash such as webpack's `workflow-bundle-6d55e86525414074065a.js`, which depends on the
 * checkout's path): about one such hash in a few hundred holds a Luhn-valid run of 13+ digits.
 * A card number next to any other letter, or standing alone, is still found.
 */
function insideHexDigest(text: string, start: number, length: number): boolean {
  let from = start;
  let to = start + length;
  while (from > 0 && /[0-9A-Za-z]/.test(text.charAt(from - 1))) from -= 1;
  while (to < text.length && /[0-9A-Za-z]/.test(text.charAt(to))) to += 1;
  const token = text.slice(from, to);
  return token.length > length && /^[0-9a-f]+$/.test(token);
}
