import type { Middleware } from 'koa';
import type { Config } from '../config';
import type { Db } from '../db/knex';
import type { Clock } from '../domain/clock';
import { ApiError, type ErrorName } from '../domain/errors';
import { type RateLimiter, TokenBuckets } from '../domain/token-bucket';
import { WIDGET_ADDRESS_RATE, WIDGET_SENSE_KEY_RATE } from '../domain/widget-signals';
import type { Logger } from '../logger';
import { payingMerchant } from './access';
import { principalOf } from './middleware/authenticate';
import { failureLimit, rateLimit, rateLimitWithClaim, SharedLimits } from './middleware/rate-limit';
import { type ApiState, stateOf } from './state';

/** Open endpoints whose caller proves itself with a credential in the request. */
const CREDENTIAL_PATHS = ['/v1/oauth2/token', '/v1/tokenize'];
/** Their answers to a wrong credential: the failures a source's failure budget counts. */
const CREDENTIAL_FAILURES: ErrorName[] = ['invalid_client', 'invalid_tokenization_key', 'order_not_found'];

/** The API's rate limits, one per kind of caller (docs/rate-limits.md). */
export interface ApiLimits {
  /** Per merchant: tokenize (the tokenization key's merchant) and the payment endpoints share buckets. */
  tokenize: Middleware;
  payments: Middleware;
  /** The payments budget, its token taken with the idempotency claim (POST /v1/evaluate). */
  paymentsWithClaim: Middleware;
  /** POST /v1/oauth2/token: per client, taken only once its secret is verified. */
  tokenPerClient: RateLimiter;
  health: Middleware;
  /**
   * Failed attempts only, per IP: a wrong client or secret, a bad tokenization key, a challenge
   * report for an unknown session key. Checked after the credential, never before it.
   */
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
  const tokenizeBuckets = limits.buckets('tokenize', config.rateLimit.perSecond, config.rateLimit.burst);
  const perIp = config.rateLimit.perIp;
  const widgetSiteBuckets = limits.buckets(
    'widget-site',
    config.widget.rateLimit.perSecond,
    config.widget.rateLimit.burst,
  );
  const senseKeyBuckets = limits.buckets('sense-key', WIDGET_SENSE_KEY_RATE.perSecond, WIDGET_SENSE_KEY_RATE.burst);
  const widgetAddressBuckets = limits.buckets('widget-ip', WIDGET_ADDRESS_RATE.perSecond, WIDGET_ADDRESS_RATE.burst);
  const siteOf = (ctx: { state: ApiState }) => stateOf(ctx.state, 'site').id;
  const perAddress = rateLimit(widgetAddressBuckets, clock, (ctx) => `${siteOf(ctx)}:${ctx.ip}`, 'widget_rate_limited');
  const perSite = rateLimit(widgetSiteBuckets, clock, siteOf, 'widget_rate_limited');
  return {
    // The tokenization key sits in the merchant's web pages, so anyone may spend with it: per
    // merchant and address, apart from the payments budget a page's visitor must not drain.
    tokenize: rateLimit(tokenizeBuckets, clock, (ctx) => `${stateOf(ctx.state, 'merchantId')}:${ctx.ip}`),
    payments: rateLimit(buckets, clock, (ctx) => payingMerchant(principalOf(ctx.state))),
    paymentsWithClaim: rateLimitWithClaim(buckets, clock, (ctx) => payingMerchant(principalOf(ctx.state))),
    // The payments budget's settings: a client may fetch a token for every payment it may make.
    tokenPerClient: limits.buckets('token-client', config.rateLimit.perSecond, config.rateLimit.burst),
    // Health answers when Postgres does not: its per-IP buckets are this process's own.
    health: rateLimit(new TokenBuckets(perIp.perSecond, perIp.burst), clock, (ctx) => ctx.ip),
    failures: failureLimit(
      limits.buckets('failures-ip', perIp.perSecond, perIp.burst),
      clock,
      (ctx) => ctx.ip,
      (ctx) => ctx.method === 'POST' && (CREDENTIAL_PATHS.includes(ctx.path) || ctx.path.startsWith('/v1/challenges/')),
      (err) => err instanceof ApiError && CREDENTIAL_FAILURES.includes(err.errorName),
      'Too many failed attempts from this address. Retry after the Retry-After period.',
    ),
    // One sender (any script can send a site's Origin) meets its own bucket before the site's.
    widgetSite: (ctx, next) => perAddress(ctx, () => perSite(ctx, next)),
    senseKey: rateLimit(
      senseKeyBuckets,
      clock,
      (ctx) => `${stateOf(ctx.state, 'site').id}:${stateOf(ctx.state, 'batch').senseKey}`,
      'widget_rate_limited',
    ),
  };
}
