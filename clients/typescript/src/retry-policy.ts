/**
 * The interface's retry rules for callers ("Errors"), and this client's decisions where it is
 * silent (README.md "Retries"):
 * - 500 (`500010`: taken up, not finished in time, included), 502, 504, no answer: exponential backoff
 *   with jitter, same idempotencyKey (idempotent calls only);
 * - 503 `503001` idempotency store, `503010` decision deadline: wait Retry-After, then retry;
 * - 503 `503002` rescue unavailable: never retried (fall back to the original decline);
 * - another 503: retried after Retry-After only when it carries one;
 * - 429: wait Retry-After; 409 `409003` (same key in flight) and `409009` (order busy): backoff;
 * - 401: refresh the token once and retry once (the transport's own rule, not counted here).
 */
export type RetryDecision = { kind: 'no' } | { kind: 'backoff' } | { kind: 'retry-after'; ms: number };

export interface RetryOptions {
  /** Attempts in all, the first included (interface: at most 3). */
  maxAttempts: number;
  /** First backoff delay; doubles each retry, with jitter. */
  baseDelayMs: number;
  /** Longest backoff delay. */
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the error is thrown with `retryAfterMs`. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryOptions = {
  maxAttempts: 3,
  baseDelayMs: 250,
  maxDelayMs: 5_000,
  maxRetryAfterMs: 30_000,
};

const RETRY_AFTER_IDS = new Set(['503001', '503010']);
const BACKOFF_IDS = new Set(['409003', '409009']);

/** How to treat one error answer. `idempotent`: repeating the call cannot act twice. */
export function decide(
  answer: { status: number; id: string | undefined; retryAfterMs: number | undefined },
  idempotent: boolean,
  options: RetryOptions,
): RetryDecision {
  const { status, id, retryAfterMs } = answer;
  const afterRetryAfter = (): RetryDecision => {
    if (retryAfterMs === undefined) return idempotent ? { kind: 'backoff' } : { kind: 'no' };
    return retryAfterMs <= options.maxRetryAfterMs ? { kind: 'retry-after', ms: retryAfterMs } : { kind: 'no' };
  };
  if (status === 503) {
    if (id === '503002') return { kind: 'no' };
    if ((id !== undefined && RETRY_AFTER_IDS.has(id)) || retryAfterMs !== undefined) return afterRetryAfter();
    return { kind: 'no' };
  }
  if (status === 429) return afterRetryAfter();
  if (!idempotent) return { kind: 'no' };
  if (status === 500 || status === 502 || status === 504) return { kind: 'backoff' };
  if (status === 409 && id !== undefined && BACKOFF_IDS.has(id)) return { kind: 'backoff' };
  return { kind: 'no' };
}

/** Exponential backoff with "equal jitter": half the step fixed, half random. `retry` counts from 1. */
export function backoffDelay(retry: number, options: RetryOptions, random: () => number = Math.random): number {
  const step = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (retry - 1));
  return Math.round(step / 2 + random() * (step / 2));
}

/** Retry-After as seconds or an HTTP date, in milliseconds; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
