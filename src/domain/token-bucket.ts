/**
 * Token buckets, one per key (merchant): `ratePerSecond` tokens refill continuously up to
 * `burst`; a request takes one. Pure: the caller passes the time.
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

export class TokenBuckets {
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
    return {
      allowed,
      limit: this.burst,
      remaining: Math.floor(bucket.tokens),
      resetSeconds: Math.ceil((this.burst - bucket.tokens) / this.ratePerSecond),
      retryAfterSeconds: allowed ? 0 : Math.ceil((1 - bucket.tokens) / this.ratePerSecond),
    };
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
