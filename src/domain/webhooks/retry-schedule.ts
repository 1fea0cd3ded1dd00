/**
 * When a failed delivery is retried, as delays after the first attempt. Stripe retries for three
 * days; we retry for five: quickly at first (most failures are brief deploys or restarts), then
 * further apart. 13 attempts in all.
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const DELIVERY_OFFSETS_MS: readonly number[] = [
  0,
  1 * MINUTE,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  24 * HOUR,
  36 * HOUR,
  48 * HOUR,
  72 * HOUR,
  96 * HOUR,
  120 * HOUR,
];
