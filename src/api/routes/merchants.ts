import Router from '@koa/router';
import { z } from 'zod';
import type { Db } from '../../db/knex';
import { getMerchantSettings, updateMerchantSettings } from '../../db/repositories/merchants';
import { createSite, listSites, siteView } from '../../db/repositories/sites';
import type { Clock } from '../../domain/clock';
import { merchantSettingsUpdate } from '../../domain/merchant-settings';
import { merchantInReach } from '../access';
import { principalOf } from '../middleware/authenticate';
import { parseInput } from '../validation';

const midParam = z.uuid();

/** An origin as browsers send it: https://host[:port]; plain http only for localhost. */
const origin = z
  .string()
  .max(255)
  .refine((value) => {
    try {
      const url = new URL(value);
      const local = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
      return url.origin === value && (url.protocol === 'https:' || (url.protocol === 'http:' && local));
    } catch {
      return false;
    }
  }, 'must be an origin such as https://shop.example.com (http only for localhost), without path or trailing slash');

export const siteBody = z.object({
  name: z.string().trim().min(1).max(100),
  allowedOrigins: z.array(origin).min(1).max(50),
});

/**
 * What the interface leaves to the merchant portal: settings (docs/merchant-settings.md) and
 * sites (the siteId the widget is initialised with, and the origins allowed to load it).
 */
export function merchantRoutes(deps: { db: Db; clock: Clock }): Router {
  const router = new Router();

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
  return router;
}
