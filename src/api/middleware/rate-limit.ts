import type { Context, Middleware } from 'koa';
import { type Db, withDeadline } from '../../db/knex';
import { type BucketTake, takeSharedToken } from '../../db/repositories/rate-limits';
import type { Clock } from '../../domain/clock';
import { ApiError, type ErrorName } from '../../domain/errors';
import { type BucketDecision, bucketDecision, type RateLimiter, TokenBuckets } from '../../domain/token-bucket';
import type { ClaimedLimit } from '../../idempotency/run-once';
import type { Logger } from '../../logger';

/** A shared bucket must answer within this, or this process decides alone for a while. */
const SHARED_TIMEOUT_MS = 500;
/** How long a process decides alone after the shared buckets failed (no waiting on a dead database). */
const FALLBACK_FOR_MS = 2_000;

/** Shared buckets whose token a later statement may take (the idempotency claim: rateLimitWithClaim). */
export interface ClaimableLimiter extends RateLimiter {
  burst: number;
  ratePerSecond: number;
  /** The bucket to take from in another statement; undefined while the limits are per-process. */
  bucketFor(key: string, nowMs: number): BucketTake | undefined;
  /**
   * The shared bucket could not be taken (`cause`: the database failed, or the bucket's row stayed
   * locked): this process's own bucket decides, and does for FALLBACK_FOR_MS.
   */
  takeAlone(key: string, nowMs: number, cause: unknown): BucketDecision;
}

/**
 * Token buckets shared by every API process: one row per key in Postgres (`rate_limit_buckets`),
 * refilled and taken in one atomic upsert, so N processes enforce one limit, not N. When Postgres
 * fails or is slow (over 500 ms), the limits fail open to per-process buckets for 2 s at a time
 * (docs/rate-limits.md): a database outage must not turn into refusals, and the edge answers 503
 * for what needs the database anyway.
 */
export class SharedLimits {
  private localUntil = 0;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
  ) {}

  /** Buckets named `name` (a key prefix), each `burst` deep, refilled at `ratePerSecond`. */
  buckets(name: string, ratePerSecond: number, burst: number): ClaimableLimiter {
    const local = new TokenBuckets(ratePerSecond, burst);
    const takeAlone = (key: string, nowMs: number, cause: unknown): BucketDecision => {
      if (Date.now() >= this.localUntil + FALLBACK_FOR_MS) {
        this.logger.warn({ err: cause }, 'shared rate limits unavailable: per-process limits for now');
      }
      this.localUntil = Date.now() + FALLBACK_FOR_MS;
      return local.take(key, nowMs);
    };
    return {
      burst,
      ratePerSecond,
      bucketFor: (key: string, nowMs: number) =>
        Date.now() < this.localUntil ? undefined : { key: `${name}:${key}`, burst, ratePerSecond, nowMs },
      takeAlone,
      take: async (key: string, nowMs: number): Promise<BucketDecision> => {
        if (Date.now() < this.localUntil) return local.take(key, nowMs);
        try {
          const state = await withDeadline(
            takeSharedToken(this.db, { key: `${name}:${key}`, burst, ratePerSecond, nowMs }, SHARED_TIMEOUT_MS),
            SHARED_TIMEOUT_MS,
          );
          return bucketDecision(state.allowed, state.tokens, burst, ratePerSecond);
        } catch (err) {
          return takeAlone(key, nowMs, err);
        }
      },
    };
  }
}

function setHeaders(ctx: Context, decision: BucketDecision): void {
  ctx.set('RateLimit-Limit', String(decision.limit));
  ctx.set('RateLimit-Remaining', String(decision.remaining));
  ctx.set('RateLimit-Reset', String(decision.resetSeconds));
}

function refusal(error: ErrorName, retryAfterSeconds: number, message?: string): ApiError {
  return new ApiError(error, {
    ...(message ? { message } : {}),
    headers: { 'Retry-After': String(Math.max(1, retryAfterSeconds)) },
  });
}

/**
 * Takes one token per key from each limiter; every answer carries the RateLimit-* headers of the
 * tightest one; a refusal throws 429 (`error`) with Retry-After. For routes that learn their key
 * on the way (the token endpoint's client, once its secret is verified).
 */
export async function enforceLimits(
  ctx: Context,
  clock: Clock,
  checks: Array<{ limiter: RateLimiter; key: string }>,
  error: ErrorName = 'rate_limited',
  message?: string,
): Promise<void> {
  const nowMs = clock.now().getTime();
  const decisions = await Promise.all(checks.map((c) => c.limiter.take(c.key, nowMs)));
  const refused = decisions.filter((d) => !d.allowed);
  const shown = [...(refused.length ? refused : decisions)].sort((a, b) => a.remaining - b.remaining)[0];
  if (shown) setHeaders(ctx, shown);
  if (refused.length) throw refusal(error, Math.max(...refused.map((d) => d.retryAfterSeconds)), message);
}

/**
 * Rate limit by key (the merchant on the payment endpoints; the site or senseKey on the widget's;
 * the client IP on open endpoints). Every answer carries RateLimit-Limit, RateLimit-Remaining and
 * RateLimit-Reset; a refused one is 429 (`error`, rate_limited unless told) with Retry-After.
 */
export function rateLimit(
  limiter: RateLimiter,
  clock: Clock,
  keyOf: (ctx: Context) => string,
  error: ErrorName = 'rate_limited',
  message?: string,
): Middleware {
  return async (ctx, next) => {
    await enforceLimits(ctx, clock, [{ limiter, key: keyOf(ctx) }], error, message);
    await next();
  };
}

/**
 * Limits failed attempts per source (a wrong API secret, an unknown tokenization key or challenge
 * session key). The credential is always checked first: only a failure takes a token from the
 * source's shared bucket, and once it is empty the source's further failures answer 429 with
 * Retry-After instead of their 401 or 404. A right credential never meets this limit, so no one
 * can lock a merchant out by failing in its name (docs/rate-limits.md). Failure answers carry the
 * bucket's RateLimit-* headers.
 */
export function failureLimit(
  limiter: RateLimiter,
  clock: Clock,
  keyOf: (ctx: Context) => string,
  appliesTo: (ctx: Context) => boolean,
  isFailure: (err: unknown) => boolean,
  message?: string,
): Middleware {
  return async (ctx, next) => {
    if (!appliesTo(ctx)) return next();
    try {
      await next();
    } catch (err) {
      if (!isFailure(err)) throw err;
      const decision = await limiter.take(keyOf(ctx), clock.now().getTime());
      setHeaders(ctx, decision);
      if (decision.allowed) throw err;
      throw refusal('rate_limited', decision.retryAfterSeconds, message);
    }
  };
}

/**
 * The rate limit of a route that claims an idempotency key: its token is taken in the claim's
 * statement (src/db/repositories/idempotency.ts), one round trip for both, and a refusal is the
 * same 429. A request that ends without claiming (refused by validation first, say) takes its
 * token afterwards; a key found refused that way is refused at once, before any work, until its
 * Retry-After has passed. When the claim finds the bucket's row locked past its bound, this
 * process's own buckets decide (`settleAlone`), as when the shared buckets fail; while they are
 * failing it is `rateLimit`.
 */
export function rateLimitWithClaim(
  limiter: ClaimableLimiter,
  clock: Clock,
  keyOf: (ctx: Context) => string,
): Middleware {
  const refusedUntil = new Map<string, number>();
  const remember = (key: string, untilMs: number) => {
    refusedUntil.set(key, untilMs);
    if (refusedUntil.size > 10_000) refusedUntil.delete(refusedUntil.keys().next().value as string);
  };
  return async (ctx, next) => {
    const key = keyOf(ctx);
    const nowMs = clock.now().getTime();
    const bucket = limiter.bucketFor(key, nowMs);
    const until = refusedUntil.get(key);
    if (!bucket || (until !== undefined && until > nowMs)) {
      await enforceLimits(ctx, clock, [{ limiter, key }]);
      refusedUntil.delete(key);
      return next();
    }
    let settled = false;
    const decide = (decision: BucketDecision) => {
      settled = true;
      setHeaders(ctx, decision);
      if (decision.allowed) return;
      remember(key, nowMs + decision.retryAfterSeconds * 1000);
      throw refusal('rate_limited', decision.retryAfterSeconds);
    };
    const claimedLimit: ClaimedLimit = {
      bucket,
      settle: (state) => decide(bucketDecision(state.allowed, state.tokens, limiter.burst, limiter.ratePerSecond)),
      settleAlone: (cause) => decide(limiter.takeAlone(key, nowMs, cause)),
    };
    ctx.state.claimedLimit = claimedLimit;
    try {
      await next();
    } finally {
      if (!settled) {
        // Answered already (its own error, say): a refusal applies to the key's next requests.
        const decision = await limiter.take(key, nowMs);
        setHeaders(ctx, decision);
        if (!decision.allowed) remember(key, nowMs + decision.retryAfterSeconds * 1000);
      }
    }
  };
}
