import type Router from '@koa/router';
import type { Middleware } from 'koa';
import type { Db } from '../../db/knex';
import { recordSignals } from '../../db/repositories/sense-sessions';
import { getWidgetConfig } from '../../db/repositories/site-widget-settings';
import type { Clock } from '../../domain/clock';
import { WIDGET_LIMITS, widgetBatch } from '../../domain/widget-signals';
import { preflight, siteCors } from '../middleware/site-cors';
import { widgetBody } from '../middleware/widget-body';
import { apiRouter } from '../router';
import { stateOf } from '../state';
import { parseInput } from '../validation';

/** The widget's endpoints: under /v1/widget/, which parse their own bodies (app.ts). */
export const WIDGET_API_PATHS = /^\/v1\/widget\//;

/**
 * What the widget calls from the shopper's page. Public (the page holds no secret): the path's
 * MID and siteId must exist and belong together, the page's origin must be one of the site's
 * allowed origins (CORS, preflight included), and rates and sizes are bounded (docs/widget.md).
 *
 * - GET  /v1/widget/{mid}/{siteId}/config: what to collect on this site, and the batch limits.
 * - POST /v1/widget/{mid}/{siteId}/signals: one batch of signals under a senseKey; 202.
 */
export function widgetRoutes(deps: {
  db: Db;
  clock: Clock;
  /** Per site, on every widget request. */
  siteRateLimit: Middleware;
  /** Per site and senseKey, on signals (after the body is validated). */
  senseKeyRateLimit: Middleware;
}): Router {
  const router = apiRouter();
  const cors = siteCors(deps.db);
  const config = '/v1/widget/:mid/:siteId/config';
  const signals = '/v1/widget/:mid/:siteId/signals';

  router.options(config, cors, deps.siteRateLimit, preflight('GET'));
  router.options(signals, cors, deps.siteRateLimit, preflight('POST'));

  router.get(config, cors, deps.siteRateLimit, async (ctx) => {
    const site = stateOf(ctx.state, 'site');
    const widgetConfig = await getWidgetConfig(deps.db, site.id);
    ctx.set('Cache-Control', 'private, max-age=60');
    ctx.body = {
      mid: site.merchant_id,
      siteId: site.id,
      ...widgetConfig,
      limits: {
        flushIntervalMs: WIDGET_LIMITS.flushIntervalMs,
        maxSignalsPerBatch: WIDGET_LIMITS.maxSignalsPerBatch,
        maxBodyBytes: WIDGET_LIMITS.maxBodyBytes,
      },
    };
  });

  router.post(
    signals,
    cors,
    deps.siteRateLimit,
    widgetBody(),
    async (ctx, next) => {
      ctx.state.batch = parseInput(widgetBatch, ctx.request.body);
      await next();
    },
    deps.senseKeyRateLimit,
    async (ctx) => {
      const site = stateOf(ctx.state, 'site');
      const batch = stateOf(ctx.state, 'batch');
      await recordSignals(deps.db, { merchantId: site.merchant_id, siteId: site.id, batch, now: deps.clock.now() });
      ctx.status = 202;
      ctx.body = { senseKey: batch.senseKey, accepted: batch.signals.length };
    },
  );
  return router;
}
