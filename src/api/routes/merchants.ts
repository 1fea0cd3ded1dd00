import type Router from '@koa/router';
import { z } from 'zod';
import type { Db } from '../../db/knex';
import { getMerchantSettings, updateMerchantSettings } from '../../db/repositories/merchants';
import { createSite, findMerchantSite, listSites, siteView, updateSite } from '../../db/repositories/sites';
import type { Clock } from '../../domain/clock';
import { ApiError } from '../../domain/errors';
import { merchantSettingsUpdate } from '../../domain/merchant-settings';
import { siteOrigin } from '../../domain/site-origins';
import { merchantInReach } from '../access';
import { principalOf } from '../middleware/authenticate';
import { apiRouter } from '../router';
import { merchantIdInput, parseInput } from '../validation';

const midParam = merchantIdInput();

export const siteBody = z.object({
  name: z.string().trim().min(1).max(100),
  allowedOrigins: z.array(siteOrigin).min(1).max(50),
});
export const siteUpdateBody = siteBody
  .partial()
  .refine((v) => Object.keys(v).length > 0, 'send at least one of name, allowedOrigins');

/**
 * What the interface leaves to the merchant portal: settings (docs/merchant-settings.md) and
 * sites (the siteId the widget is initialised with, and the origins allowed to load it).
 */
export function merchantRoutes(deps: { db: Db; clock: Clock }): Router {
  const router = apiRouter();

  const reach = async (ctx: { state: object; params: Record<string, string | undefined> }) => {
    const mid = parseInput(midParam, ctx.params.mid, 'mid');
    await merchantInReach(deps.db, principalOf(ctx.state), mid);
    return mid;
  };

  router.get('/v1/merchants/:mid/settings', async (ctx) => {
    const mid = await reach(ctx);
    ctx.body = { mid, ...(await getMerchantSettings(deps.db, mid)) };
  });

  router.put('/v1/merchants/:mid/settings', async (ctx) => {
    const mid = await reach(ctx);
    const change = parseInput(merchantSettingsUpdate, ctx.request.body);
    ctx.body = { mid, ...(await updateMerchantSettings(deps.db, mid, change, deps.clock.now())) };
  });

  router.get('/v1/merchants/:mid/sites', async (ctx) => {
    const mid = await reach(ctx);
    ctx.body = { mid, data: (await listSites(deps.db, mid)).map(siteView) };
  });

  router.post('/v1/merchants/:mid/sites', async (ctx) => {
    const mid = await reach(ctx);
    const input = parseInput(siteBody, ctx.request.body);
    const site = await createSite(deps.db, { merchantId: mid, ...input });
    ctx.status = 201;
    ctx.body = siteView(site);
  });

  const siteInReach = async (ctx: { state: object; params: Record<string, string | undefined> }) => {
    const mid = await reach(ctx);
    const siteId = ctx.params.siteId ?? '';
    const site = midParam.safeParse(siteId).success ? await findMerchantSite(deps.db, mid, siteId) : undefined;
    if (!site) throw new ApiError('site_not_found');
    return site;
  };

  router.get('/v1/merchants/:mid/sites/:siteId', async (ctx) => {
    ctx.body = siteView(await siteInReach(ctx));
  });

  // Replaces what it names (allowedOrigins whole); the widget's CORS check uses the new origins at once.
  router.put('/v1/merchants/:mid/sites/:siteId', async (ctx) => {
    const site = await siteInReach(ctx);
    const change = parseInput(siteUpdateBody, ctx.request.body);
    ctx.body = siteView(await updateSite(deps.db, site.id, change));
  });
  return router;
}
