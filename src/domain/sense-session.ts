/**
 * When a widget session may contribute device signals to evaluate. "Stale" is our rule (the
 * interface leaves it open): a session last seen more than 30 minutes before the evaluate. The
 * widget sends at least every few seconds while the page is open and on page hide, so a checkout
 * submitted from a live page is always fresh; a tab left for half an hour is not the same visit.
 */
export const SENSE_SESSION_STALE_AFTER_MS = 30 * 60_000;

export interface SenseSessionFacts {
  lastSeenAt: Date;
  /** The externalOrderId the page bound with setOrderId or createOrderId, if any. */
  externalOrderId: string | null;
}

export type DeviceSignalsVerdict = 'fresh' | 'no_session' | 'stale' | 'order_mismatch';

/**
 * The session must be this merchant's (the caller looks it up by merchant), seen within the
 * window, and, when both the page and the evaluate name an order, name the same one.
 */
export function judgeSenseSession(
  session: SenseSessionFacts | undefined,
  evaluate: { externalOrderId: string },
  now: Date,
): DeviceSignalsVerdict {
  if (!session) return 'no_session';
  if (now.getTime() - session.lastSeenAt.getTime() > SENSE_SESSION_STALE_AFTER_MS) return 'stale';
  if (session.externalOrderId !== null && session.externalOrderId !== evaluate.externalOrderId) {
    return 'order_mismatch';
  }
  return 'fresh';
}
