import type { Middleware } from 'koa';
import type { Db } from '../../db/knex';
import { findApiKey } from '../../db/repositories/api-keys';
import type { Clock } from '../../domain/clock';
import { isDashboardLinkToken, verifyDashboardLink } from '../../domain/dashboard-link';
import { ApiError } from '../../domain/errors';
import type { Principal } from '../../domain/scopes';

const CHALLENGE = 'Bearer realm="payment-rescue"';

/**
 * In front of the reads the merchant dashboard makes (docs/dashboard.md): a dashboard link token
 * (`Bearer dl1.…`) is a read-only credential of one merchant on GET, checked by its signature; any
 * other bearer goes on to `bearer`. On any other method the link is refused as no access token
 * (401 invalid_token), so a link can never write, and the routes outside this guard never see it
 * (their bearer check finds no such access token). A link dies with the API key that minted it:
 * its key is read on each use (the dashboard's few reads, not the payment path).
 */
export function bearerOrDashboardLink(
  db: Db,
  bearer: Middleware,
  linkSecret: string | undefined,
  clock: Clock,
): Middleware {
  return async (ctx, next) => {
    const token = /^Bearer[ ]+(\S+)$/i.exec(ctx.get('authorization'))?.[1];
    if (!token || !isDashboardLinkToken(token)) return bearer(ctx, next);
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      throw new ApiError('invalid_token', { headers: { 'WWW-Authenticate': CHALLENGE } });
    }
    const check = linkSecret ? verifyDashboardLink(linkSecret, token, clock.now()) : { problem: 'invalid' as const };
    if ('problem' in check) {
      throw new ApiError(check.problem === 'expired' ? 'dashboard_link_expired' : 'dashboard_link_invalid', {
        headers: { 'WWW-Authenticate': `${CHALLENGE}, error="invalid_token"` },
      });
    }
    const { claims } = check;
    const key = await findApiKey(db, claims.apiKeyId);
    // The key must still hold what minted the link: revoked, or its payments scope taken, it ends.
    if (!key || key.revoked_at || key.merchant_id !== claims.merchantId || !key.scopes.includes('payments')) {
      throw new ApiError('dashboard_link_invalid', {
        headers: { 'WWW-Authenticate': `${CHALLENGE}, error="invalid_token"` },
      });
    }
    // A merchant key's principal, with only the scope the dashboard's reads need.
    ctx.state.principal = {
      apiKeyId: claims.apiKeyId,
      ownerType: 'merchant',
      partnerId: claims.partnerId,
      merchantId: claims.merchantId,
      scopes: ['payments'],
      readOnly: true,
    };
    await next();
  };
}

/** An order as a reader is shown it: through a dashboard link, without its orderSessionKey. */
export function orderShownTo<T extends { orderSessionKey: string }>(
  principal: Principal | undefined,
  view: T,
): T | Omit<T, 'orderSessionKey'> {
  if (!principal?.readOnly) return view;
  const { orderSessionKey: _, ...shown } = view;
  return shown;
}
