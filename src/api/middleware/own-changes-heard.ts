import type { Middleware } from 'koa';
import type { CacheNotifications } from '../../db/cache-notifications';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * For routes that change cached rows (API keys, merchant settings, sites): a successful change is
 * answered only after this process's caches heard it, so a key revoked through this API is
 * refused by the next request at once, here; other processes follow within a second.
 */
export function ownChangesHeard(notifications: CacheNotifications | undefined): Middleware {
  return async (ctx, next) => {
    await next();
    if (notifications && !SAFE_METHODS.has(ctx.method) && ctx.status < 400) await notifications.catchUp();
  };
}
