import type { Context, Middleware } from 'koa';
import type { Clock } from '../../domain/clock';
import { ApiError } from '../../domain/errors';
import type { TokenBuckets } from '../../domain/token-bucket';

/**
 * Per-merchant rate limit on the payment endpoints. Every answer carries RateLimit-Limit,
 * RateLimit-Remaining and RateLimit-Reset; a refused one is 429 rate_limited with Retry-After.
 */
export function rateLimit(buckets: TokenBuckets, clock: Clock, keyOf: (ctx: Context) => string): Middleware {
  return async (ctx, next) => {
    const decision = buckets.take(keyOf(ctx), clock.now().getTime());
    ctx.set('RateLimit-Limit', String(decision.limit));
    ctx.set('RateLimit-Remaining', String(decision.remaining));
    ctx.set('RateLimit-Reset', String(decision.resetSeconds));
    if (!decision.allowed) {
      throw new ApiError('rate_limited', { headers: { 'Retry-After': String(decision.retryAfterSeconds) } });
    }
    await next();
  };
}
