import type Router from '@koa/router';
import { z } from 'zod';
import type { Db } from '../../db/knex';
import { getWidgetConfig, updateWidgetConfig } from '../../db/repositories/site-widget-settings';
import { findMerchantSite } from '../../db/repositories/sites';
import type { Clock } from '../../domain/clock';
import { ApiError } from '../../domain/errors';
import { applyWidgetConfigUpdate, type WidgetConfig, widgetConfigUpdate } from '../../domain/widget-config';
import { merchantInReach } from '../access';
import { principalOf } from '../middleware/authenticate';
import { apiRouter } from '../router';
import { merchantIdInput, parseInput } from '../validation';

const guid = z.uuid();

/** The snippet a merchant pastes on every checkout-funnel page (docs/widget.md). */
export function widgetSnippet(widgetUrl: string, mid: string, siteId: string): string {
  return [
    `<script async src="${widgetUrl}"></script>`,
    '<script>window.fc=window.fc||function(){(fc.q=fc.q||[]).push(arguments)};</script>',
    `<script>fc('init', '${mid}', '${siteId}');</script>`,
  ].join('\n');
}

/**
 * The portal side of the widget (bearer, scope `settings`: app.ts guards the routes): what it
 * collects on a site and at which selectors. GET answers the effective configuration (the
 * defaults until a PUT), the widget URL and the site's snippet; PUT changes what it names.
 */
export function siteWidgetRoutes(deps: { db: Db; clock: Clock; widgetUrl: string }): Router {
  const router = apiRouter();
  const path = '/v1/merchants/:mid/sites/:siteId/widget';

  const siteInReach = async (ctx: { state: object; params: Record<string, string | undefined> }) => {
    const mid = parseInput(merchantIdInput(), ctx.params.mid, 'mid');
    await merchantInReach(deps.db, principalOf(ctx.state), mid);
    const siteId = ctx.params.siteId ?? '';
    const site = guid.safeParse(siteId).success ? await findMerchantSite(deps.db, mid, siteId) : undefined;
    if (!site) throw new ApiError('site_not_found');
    return site;
  };
  const view = (mid: string, siteId: string, config: WidgetConfig) => ({
    mid,
    siteId,
    ...config,
    widgetUrl: deps.widgetUrl,
    snippet: widgetSnippet(deps.widgetUrl, mid, siteId),
  });

  router.get(path, async (ctx) => {
    const site = await siteInReach(ctx);
    ctx.body = view(site.merchant_id, site.id, await getWidgetConfig(deps.db, site.id));
  });

  router.put(path, async (ctx) => {
    const site = await siteInReach(ctx);
    const change = parseInput(widgetConfigUpdate, ctx.request.body);
    const next = await updateWidgetConfig(
      deps.db,
      site.id,
      (current) => applyWidgetConfigUpdate(current, change),
      deps.clock.now(),
    );
    ctx.body = view(site.merchant_id, site.id, next);
  });
  return router;
}
