import type { Middleware } from 'koa';
import type { Config } from '../config';
import type { Db } from '../db/knex';
import type { Clock } from '../domain/clock';
import { ApiError } from '../domain/errors';
import { type RateLimiter, TokenBuckets } from '../domain/token-bucket';
import { WIDGET_SENSE_KEY_RATE } from '../domain/widget-signals';
import type { Logger } from '../logger';
import { payingMerchant } from './access';
import { principalOf } from './middleware/authenticate';
import { failureLimit, rateLimit, SharedLimits } from './middleware/rate-limit';
import { stateOf } from './state';

/** The API's rate limits, one per kind of caller (docs/rate-limits.md). */
export interface ApiLimits {
  /** Per merchant: tokenize (the tokenization key's merchant) and the payment endpoints share buckets. */
  tokenize: Middleware;
  payments: Middleware;
  /** POST /v1/oauth2/token: per client IP and per client id. */
  token: { perIp: RateLimiter; perClient: RateLimiter };
  health: Middleware;
  /** Failed attempts only, per IP: a bad tokenization key, a challenge report for an unknown session key. */
  failures: Middleware;
  widgetSite: Middleware;
  senseKey: Middleware;
}

/** Builds the limits; all but health's are shared by every API process through Postgres. */
export function apiLimits(
  db: Db,
  logger: Logger,
  clock: Clock,
  config: Pick<Config, 'rateLimit' | 'widget'>,
): ApiLimits {
  const limits = new SharedLimits(db, logger);
  const buckets = limits.buckets('merchant', config.rateLimit.perSecond, config.rateLimit.burst);
  const perIp = config.rateLimit.perIp;
  const { tokenPerClient } = config.rateLimit;
  const widgetSiteBuckets = limits.buckets(
    'widget-site',
    config.widget.rateLimit.perSecond,
    config.widget.rateLimit.burst,
  );
  const senseKeyBuckets = limits.buckets('sense-key', WIDGET_SENSE_KEY_RATE.perSecond, WIDGET_SENSE_KEY_RATE.burst);
  return {
    tokenize: rateLimit(buckets, clock, (ctx) => stateOf(ctx.state, 'merchantId')),
    payments: rateLimit(buckets, clock, (ctx) => payingMerchant(principalOf(ctx.state))),
    token: {
      perIp: limits.buckets('token-ip', perIp.perSecond, perIp.burst),
      perClient: limits.buckets('token-client', tokenPerClient.perSecond, tokenPerClient.burst),
    },
    // Health answers when Postgres does not: its per-IP buckets are this process's own.
    health: rateLimit(new TokenBuckets(perIp.perSecond, perIp.burst), clock, (ctx) => ctx.ip),
    failures: failureLimit(
      limits.buckets('failures-ip', perIp.perSecond, perIp.burst),
      clock,
      (ctx) => ctx.ip,
      (ctx) => ctx.method === 'POST' && (ctx.path === '/v1/tokenize' || ctx.path.startsWith('/v1/challenges/')),
      (err) =>
        err instanceof ApiError &&
        (err.errorName === 'invalid_tokenization_key' || err.errorName === 'order_not_found'),
      'Too many failed attempts from this address. Retry after the Retry-After period.',
    ),
    widgetSite: rateLimit(widgetSiteBuckets, clock, (ctx) => stateOf(ctx.state, 'site').id, 'widget_rate_limited'),
    senseKey: rateLimit(
      senseKeyBuckets,
      clock,
      (ctx) => `${stateOf(ctx.state, 'site').id}:${stateOf(ctx.state, 'batch').senseKey}`,
      'widget_rate_limited',
    ),
  };
}
