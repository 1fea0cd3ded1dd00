import type { Context, Middleware } from 'koa';
import type { Clock } from '../../domain/clock';
import { ApiError, type ErrorName } from '../../domain/errors';
import type { TokenBuckets } from '../../domain/token-bucket';

/**
 * Rate limit by key (the merchant on the payment endpoints; the site or senseKey on the widget's).
 * Every answer carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset; a refused one is
 * 429 (`error`, rate_limited unless told) with Retry-After.
 */
export function rateLimit(
  buckets: TokenBuckets,
  clock: Clock,
  keyOf: (ctx: Context) => string,
  error: ErrorName = 'rate_limited',
): Middleware {
  return async (ctx, next) => {
    const decision = buckets.take(keyOf(ctx), clock.now().getTime());
    ctx.set('RateLimit-Limit', String(decision.limit));
    ctx.set('RateLimit-Remaining', String(decision.remaining));
    ctx.set('RateLimit-Reset', String(decision.resetSeconds));
    if (!decision.allowed) {
      throw new ApiError(error, { headers: { 'Retry-After': String(decision.retryAfterSeconds) } });
    }
    await next();
  };
}
