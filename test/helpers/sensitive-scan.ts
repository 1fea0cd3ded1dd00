import { passesLuhn } from '../../src/domain/sensitive-data';

/** Issued secrets by their prefixes, and card numbers (13-19 digits passing Luhn). */
const SECRET = /\b(sk_(?:sandbox|live)|tk_(?:sandbox|live)|at)_[A-Za-z0-9_-]{30,}/g;
const DIGITS = /(?<!\d)\d{13,19}(?!\d)/g;
const BUNDLE_NAME = /workflow-bundle-[0-9a-f]{20}\.js/g;

/**
 * Where sensitive values appear in `text`: each finding is described (kind and position), never
 * quoted, so a failure report does not leak what it found.
 */
export function findSensitive(text: string): string[] {
  const findings: string[] = [];
  for (const m of text.matchAll(SECRET)) findings.push(`${m[1]} secret at offset ${m.index}`);
  // The worker's first log line names its webpack bundle by a content hash that depends on the
  // checkout's path; about one path in a few hundred gives a hash holding a Luhn-valid run of 13+
  // digits. Blanked (same length, so offsets hold) before the card scan, and nothing else is.
  const scanned = text.replace(BUNDLE_NAME, (name) => 'x'.repeat(name.length));
  for (const m of scanned.matchAll(DIGITS)) {
    if (passesLuhn(m[0])) findings.push(`card number (BIN ${m[0].slice(0, 6)}) at offset ${m.index}`);
  }
  return findings;
}
