/**
 * When an async MIT rescue retries the charge, as offsets from the moment the order was accepted.
 *
 * Card-network rules: Visa allows at most 15 re-attempts of a declined transaction in 30 days
 * (Mastercard's excessive-retry rules are stricter per day), never a retry after a hard decline.
 * The schedule front-loads a few attempts (funds often arrive within a day: pay day, a transfer)
 * and then spaces them out to every other day, which also keeps the retry fees and the issuer's
 * suspicion low. 15 attempts at most; none at or after the window's end.
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const RETRY_OFFSETS_MS: readonly number[] = [
  1 * MINUTE,
  1 * HOUR,
  6 * HOUR,
  1 * DAY,
  2 * DAY,
  3 * DAY,
  5 * DAY,
  7 * DAY,
  9 * DAY,
  11 * DAY,
  13 * DAY,
  15 * DAY,
  17 * DAY,
  19 * DAY,
  20 * DAY + 12 * HOUR,
];

export const MAX_RETRY_ATTEMPTS = 15;

/** The attempt times (epoch ms) that fall strictly before the window's end. */
export function retryTimes(acceptedAtMs: number, windowEndsAtMs: number): number[] {
  return RETRY_OFFSETS_MS.slice(0, MAX_RETRY_ATTEMPTS)
    .map((offset) => acceptedAtMs + offset)
    .filter((at) => at < windowEndsAtMs);
}
