/**
 * Token buckets, one per key (merchant, client id, IP...): `ratePerSecond` tokens refill
 * continuously up to `burst`; a request takes one. Pure: the caller passes the time.
 */
export interface BucketDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** Seconds until one token is available (0 when allowed). */
  retryAfterSeconds: number;
}

/** The decision for a bucket holding `tokens` after the request (taken from it when allowed). */
export function bucketDecision(allowed: boolean, tokens: number, burst: number, ratePerSecond: number): BucketDecision {
  return {
    allowed,
    limit: burst,
    remaining: Math.max(0, Math.floor(tokens)),
    resetSeconds: Math.ceil((burst - tokens) / ratePerSecond),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - tokens) / ratePerSecond)),
  };
}

/** Anything that decides on one request for a key at a time (in memory, or shared in Postgres). */
export interface RateLimiter {
  take(key: string, nowMs: number): Promise<BucketDecision> | BucketDecision;
}

/** In-memory buckets of one process: the fallback of the shared ones (src/api/middleware/rate-limit.ts). */
export class TokenBuckets implements RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; updatedMs: number }>();

  constructor(
    private readonly ratePerSecond: number,
    private readonly burst: number,
    private readonly maxKeys = 100_000,
  ) {}

  take(key: string, nowMs: number): BucketDecision {
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, updatedMs: nowMs };
    const elapsed = Math.max(0, nowMs - bucket.updatedMs) / 1000;
    bucket.tokens = Math.min(this.burst, bucket.tokens + elapsed * this.ratePerSecond);
    bucket.updatedMs = nowMs;
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    this.remember(key, bucket);
    return bucketDecision(allowed, bucket.tokens, this.burst, this.ratePerSecond);
  }

  private remember(key: string, bucket: { tokens: number; updatedMs: number }): void {
    this.buckets.delete(key); // re-insert: the Map's order is then least recently used first
    this.buckets.set(key, bucket);
    if (this.buckets.size > this.maxKeys) {
      const oldest = this.buckets.keys().next().value;
      if (oldest !== undefined) this.buckets.delete(oldest);
    }
  }
}
