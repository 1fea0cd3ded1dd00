/**
 * Decline response codes (ISO 8583 field 39 as the networks use it, plus Visa's stop-payment
 * codes). "Hard" codes may never be retried: lost or stolen card, invalid account, closed
 * account, revoked authorisations and every do-not-retry advice. Everything else is "soft": the
 * issuer may approve later (insufficient funds, do not honour, issuer unavailable, ...).
 */
const HARD = new Set([
  '04', // pick up card
  '07', // pick up card, special conditions (fraud)
  '12', // invalid transaction
  '14', // invalid card number (no such account)
  '15', // no such issuer
  '41', // lost card
  '43', // stolen card
  '46', // closed account
  '54', // expired card
  '57', // transaction not permitted to cardholder
  '59', // suspected fraud
  '62', // restricted card
  '78', // blocked, first used / no account
  'R0', // stop payment order
  'R1', // revocation of authorisation order
  'R3', // revocation of all authorisations order
]);

export type DeclineCategory = 'hard' | 'soft';

export function declineCategory(code: string | undefined): DeclineCategory {
  return code !== undefined && HARD.has(code.trim().toUpperCase()) ? 'hard' : 'soft';
}
