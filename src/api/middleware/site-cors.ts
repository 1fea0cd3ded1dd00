import type { Middleware } from 'koa';
import { z } from 'zod';
import type { Db } from '../../db/knex';
import { findMerchantSite } from '../../db/repositories/sites';
import { ApiError } from '../../domain/errors';

const guid = z.guid();

/**
 * CORS for the widget endpoints, whose path names the merchant and the site
 * (`/v1/widget/{mid}/{siteId}/...`). The site must exist and belong to the MID (else 404010), and
 * the request's Origin must be one of the site's allowed origins (else 403010, without any
 * Access-Control-Allow-Origin, so the browser withholds the answer too). The server refuses
 * rather than relying on the browser: a sendBeacon or no-cors POST is sent whatever CORS says.
 * Sets ctx.state.site for the route.
 */
export function siteCors(db: Db): Middleware {
  return async (ctx, next) => {
    ctx.vary('Origin');
    const { mid, siteId } = ctx.params as { mid?: string; siteId?: string };
    const site =
      guid.safeParse(mid).success && guid.safeParse(siteId).success
        ? await findMerchantSite(db, mid as string, siteId as string)
        : undefined;
    if (!site) throw new ApiError('site_not_found');
    const origin = ctx.get('origin');
    if (!origin || !site.allowed_origins.includes(origin)) throw new ApiError('widget_origin_forbidden');
    ctx.set('Access-Control-Allow-Origin', origin);
    ctx.set('Access-Control-Expose-Headers', 'RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After');
    ctx.state.site = site;
    await next();
  };
}

/** Answers a preflight that siteCors let through: the one method of the path, and content-type. */
export function preflight(method: 'GET' | 'POST'): Middleware {
  return async (ctx) => {
    ctx.set('Access-Control-Allow-Methods', `${method}, OPTIONS`);
    ctx.set('Access-Control-Allow-Headers', 'content-type');
    ctx.set('Access-Control-Max-Age', '600');
    ctx.status = 204;
  };
}
