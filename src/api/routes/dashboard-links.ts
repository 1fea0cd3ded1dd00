import { z } from 'zod';
import type { Clock } from '../../domain/clock';
import {
  DASHBOARD_LINK_DEFAULT_SECONDS,
  DASHBOARD_LINK_MAX_SECONDS,
  mintDashboardLink,
} from '../../domain/dashboard-link';
import { ApiError } from '../../domain/errors';
import { payingMerchant } from '../access';
import { principalOf } from '../middleware/authenticate';
import { apiRouter } from '../router';
import { parseInput } from '../validation';

export const dashboardLinkBody = z
  .object({
    expiresInSeconds: z
      .number()
      .int()
      .min(60)
      .max(DASHBOARD_LINK_MAX_SECONDS)
      .default(DASHBOARD_LINK_DEFAULT_SECONDS)
      .describe('How long the link works: 60 to 3600 seconds, 900 (15 minutes) by default.'),
  })
  .strict();

/**
 * POST /v1/dashboard/links: the merchant's backend, with its bearer, mints a short-lived signed
 * link to the dashboard for one of its users (docs/dashboard.md). The token rides in the URL's
 * fragment, which browsers never send to a server: it stays out of access logs and Referer.
 */
export function dashboardLinkRoutes(deps: { clock: Clock; linkSecret: string | undefined; publicBaseUrl: string }) {
  const router = apiRouter();
  router.post('/v1/dashboard/links', async (ctx) => {
    const principal = principalOf(ctx.state);
    const merchantId = payingMerchant(principal);
    const { expiresInSeconds } = parseInput(dashboardLinkBody, ctx.request.body ?? {});
    if (!deps.linkSecret) throw new ApiError('dashboard_closed');
    // Whole seconds, as the token carries it.
    const expiresAt = new Date((Math.floor(deps.clock.now().getTime() / 1000) + expiresInSeconds) * 1000);
    const token = mintDashboardLink(deps.linkSecret, {
      merchantId,
      partnerId: principal.partnerId,
      apiKeyId: principal.apiKeyId,
      expiresAt,
    });
    ctx.status = 201;
    ctx.set('cache-control', 'no-store');
    ctx.body = { url: `${deps.publicBaseUrl}/dashboard#link=${token}`, expiresAt: expiresAt.toISOString() };
  });
  return router;
}
