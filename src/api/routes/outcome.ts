import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { z } from 'zod';
import type { Db } from '../../db/knex';
import type { Clock } from '../../domain/clock';
import type { NetworkRegion } from '../../domain/network-rules';
import { orderLookup } from '../../orders/order-lookup';
import { payingMerchant } from '../access';
import { principalOf } from '../middleware/authenticate';
import { orderByReference } from '../order-reference';
import { apiRouter } from '../router';
import { stateOf } from '../state';
import { parseInput } from '../validation';

/** `orderId`, or the `orderSessionKey` the vendor's Node sample sends (either finds the order). */
export const outcomeBody = z
  .object({ orderId: z.uuid().optional(), orderSessionKey: z.uuid().optional() })
  .refine((b) => Boolean(b.orderId ?? b.orderSessionKey), {
    path: ['orderId'],
    message: 'is required (or orderSessionKey)',
  });

/**
 * POST /v1/outcome: deprecated alias of GET /v1/orders/{id} (body { orderId }), kept working for
 * existing integrations and left out of the documentation's navigation. Every answer carries
 * `Deprecation: true` and a `Link` to its successor; the body is the order lookup's.
 */
export function outcomeRoutes(deps: {
  db: Db;
  rateLimit: Middleware;
  clock: Clock;
  /** For the lookup's retryBudget (docs/network-rules.md): the app applies the default. */
  networkRegion: NetworkRegion;
}): Router {
  const router = apiRouter();
  router.post(
    '/v1/outcome',
    async (ctx, next) => {
      ctx.set('Deprecation', 'true');
      const parsed = parseInput(outcomeBody, ctx.request.body);
      const orderId = (parsed.orderId ?? parsed.orderSessionKey) as string;
      ctx.set('Link', `</v1/orders/${orderId}>; rel="successor-version"`);
      ctx.state.orderReference = orderId;
      await next();
    },
    deps.rateLimit,
    async (ctx) => {
      const merchantId = payingMerchant(principalOf(ctx.state));
      const order = await orderByReference(ctx, deps.db, merchantId, stateOf(ctx.state, 'orderReference'));
      ctx.body = await orderLookup(deps.db, order, deps.clock.now(), deps.networkRegion);
    },
  );
  return router;
}
