import Router from '@koa/router';
import type { Db } from '../../db/knex';
import { issueAccessToken } from '../../db/repositories/access-tokens';
import { acceptsSecret, findApiKey } from '../../db/repositories/api-keys';
import type { Clock } from '../../domain/clock';
import { ApiError } from '../../domain/errors';
import type { RateLimiter } from '../../domain/token-bucket';
import { enforceLimits } from '../middleware/rate-limit';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Client id and secret from HTTP Basic (RFC 6749 2.3.1: form-urlencoded, then base64). */
function basicCredentials(header: string): { id: string; secret: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header);
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return {
    id: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')),
    secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')),
  };
}

const LIMITED = 'Too many token requests for this client or from this address. Retry after the Retry-After period.';

/**
 * POST /v1/oauth2/token: the OAuth2 client-credentials grant (RFC 6749 section 4.4). The client
 * is an API key: client_id is its id, client_secret its secret, sent in the body (JSON or form)
 * or by HTTP Basic. Answers { access_token, token_type: "Bearer", expires_in, scope }.
 * Rate limited per client IP (every request) and per client id (every request naming it), both
 * before the database is asked (docs/rate-limits.md).
 */
export function oauthTokenRoutes(deps: {
  db: Db;
  clock: Clock;
  ttlSeconds: number;
  limits?: { perClient: RateLimiter; perIp: RateLimiter };
}): Router {
  const router = new Router();
  router.post('/v1/oauth2/token', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Pragma', 'no-cache');
    const limits = deps.limits;
    if (limits) await enforceLimits(ctx, deps.clock, [{ limiter: limits.perIp, key: ctx.ip }], 'rate_limited', LIMITED);
    const body = (ctx.request.body ?? {}) as Record<string, unknown>;
    const basic = basicCredentials(ctx.get('authorization'));
    const oauth = (error: 'invalid_client' | 'unsupported_grant_type' | 'oauth_invalid_request', code: string) =>
      new ApiError(error, {
        oauthError: code,
        ...(error === 'invalid_client' && basic
          ? { headers: { 'WWW-Authenticate': 'Basic realm="payment-rescue"' } }
          : {}),
      });

    if (typeof body.grant_type !== 'string') throw oauth('oauth_invalid_request', 'invalid_request');
    if (body.grant_type !== 'client_credentials') throw oauth('unsupported_grant_type', 'unsupported_grant_type');
    if (basic && (body.client_id !== undefined || body.client_secret !== undefined)) {
      throw oauth('oauth_invalid_request', 'invalid_request'); // RFC 6749 2.3: one method only
    }
    const id = basic?.id ?? body.client_id;
    const secret = basic?.secret ?? body.client_secret;
    if (typeof id !== 'string' || typeof secret !== 'string' || !UUID.test(id)) {
      throw oauth('invalid_client', 'invalid_client');
    }
    if (limits) {
      await enforceLimits(
        ctx,
        deps.clock,
        [{ limiter: limits.perClient, key: id.toLowerCase() }],
        'rate_limited',
        LIMITED,
      );
    }
    const now = deps.clock.now();
    const key = await findApiKey(deps.db, id);
    if (!key || !acceptsSecret(key, secret, now)) throw oauth('invalid_client', 'invalid_client');

    const { token } = await issueAccessToken(deps.db, key.id, now, deps.ttlSeconds);
    ctx.body = { access_token: token, token_type: 'Bearer', expires_in: deps.ttlSeconds, scope: key.scopes.join(' ') };
  });
  return router;
}
