import type Router from '@koa/router';
import type { Db } from '../../db/knex';
import { issueAccessToken } from '../../db/repositories/access-tokens';
import { acceptsSecret, findApiKey } from '../../db/repositories/api-keys';
import type { Clock } from '../../domain/clock';
import { ApiError } from '../../domain/errors';
import type { RateLimiter } from '../../domain/token-bucket';
import { enforceLimits } from '../middleware/rate-limit';
import { apiRouter } from '../router';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Client id and secret from HTTP Basic (RFC 6749 2.3.1: form-urlencoded, then base64). */
function basicCredentials(header: string): { id: string; secret: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header);
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  // An undecodable part names no client: it reads as '', which the grant refuses as invalid_client.
  return { id: formDecoded(decoded.slice(0, colon)), secret: formDecoded(decoded.slice(colon + 1)) };
}

function formDecoded(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return '';
  }
}

/**
 * FlexCharge's token request: `AppKey` / `AppSecret` (ActiveMerchant) or `appKey` / `appSecret`
 * (the vendor's Node sample): the API key's id and secret. Undefined when neither key is there.
 */
function vendorCredentials(body: Record<string, unknown>): { id: string; secret: string | undefined } | undefined {
  const id = body.AppKey ?? body.appKey;
  if (typeof id !== 'string') return undefined;
  const secret = body.AppSecret ?? body.appSecret;
  return { id, secret: typeof secret === 'string' ? secret : undefined };
}

/**
 * FlexCharge's token answer, in its own shape: `accessToken` and `expires` (Unix epoch
 * milliseconds), with its envelope. Deliberately without `access_token`: ActiveMerchant's
 * transcript scrubber filters only `accessToken`, so a second copy would reach merchants' logs.
 * For the same reason `id` is the token's own id (as in the commercial service's recorded answer,
 * where it is not the AppKey), never the API key's: the scrubber does not filter `id`.
 * There is no refresh grant: `refreshToken` is null, and a client asks again with its AppKey.
 */
function vendorTokenAnswer(token: string, tokenId: string, expiresAtMs: number, ttlSeconds: number) {
  return {
    accessToken: token,
    refreshToken: null,
    expires: expiresAtMs,
    tokenType: 'Bearer',
    expiresIn: ttlSeconds,
    id: tokenId,
    success: true,
    result: null,
    status: null,
    statusCode: null,
    errors: [],
    customProperties: {},
  };
}

const LIMITED =
  'Too many token requests for this client. Keep the access token until it expires (expires_in) and retry after the Retry-After period.';

/**
 * POST /v1/oauth2/token: the OAuth2 client-credentials grant (RFC 6749 section 4.4). The client
 * is an API key: client_id is its id, client_secret its secret, sent in the body (JSON or form)
 * or by HTTP Basic. Answers { access_token, token_type: "Bearer", expires_in, scope }. A JSON
 * body with FlexCharge's `AppKey` / `AppSecret` and no grant_type is the same grant in that
 * dialect, answered in its shape (docs/compatibility.md).
 * The secret is always verified first (docs/rate-limits.md): a verified client spends its own
 * budget, and only it can; a failure spends its source's failure budget (the `failures` limit of
 * src/api/limits.ts), so no one can lock a client out by sending wrong secrets under its id.
 */
export function oauthTokenRoutes(deps: { db: Db; clock: Clock; ttlSeconds: number; perClient?: RateLimiter }): Router {
  const router = apiRouter();
  router.post('/v1/oauth2/token', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Pragma', 'no-cache');
    const body = (ctx.request.body ?? {}) as Record<string, unknown>;
    const basic = basicCredentials(ctx.get('authorization'));
    const perClient = deps.perClient;
    const limitClient = async (keyId: string) => {
      if (perClient)
        await enforceLimits(ctx, deps.clock, [{ limiter: perClient, key: keyId }], 'rate_limited', LIMITED);
    };
    const oauth = (error: 'invalid_client' | 'unsupported_grant_type' | 'oauth_invalid_request', code: string) =>
      new ApiError(error, {
        oauthError: code,
        ...(error === 'invalid_client' && basic
          ? { headers: { 'WWW-Authenticate': 'Basic realm="payment-rescue"' } }
          : {}),
      });

    // The FlexCharge dialect: JSON { AppKey, AppSecret } (the Node sample: appKey, appSecret), no grant_type.
    const vendor = body.grant_type === undefined && !basic ? vendorCredentials(body) : undefined;
    if (vendor) {
      const key = UUID.test(vendor.id) ? await findApiKey(deps.db, vendor.id) : undefined;
      const now = deps.clock.now();
      if (!key || vendor.secret === undefined || !acceptsSecret(key, vendor.secret, now)) {
        throw oauth('invalid_client', 'invalid_client');
      }
      await limitClient(key.id);
      const { id, token } = await issueAccessToken(deps.db, key.id, now, deps.ttlSeconds);
      ctx.body = vendorTokenAnswer(token, id, now.getTime() + deps.ttlSeconds * 1000, deps.ttlSeconds);
      return;
    }
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
    const now = deps.clock.now();
    const key = await findApiKey(deps.db, id);
    if (!key || !acceptsSecret(key, secret, now)) throw oauth('invalid_client', 'invalid_client');
    await limitClient(key.id);

    const { token } = await issueAccessToken(deps.db, key.id, now, deps.ttlSeconds);
    ctx.body = { access_token: token, token_type: 'Bearer', expires_in: deps.ttlSeconds, scope: key.scopes.join(' ') };
  });
  return router;
}
