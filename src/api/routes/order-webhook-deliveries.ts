import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { z } from 'zod';
import type { Db } from '../../db/knex';
import { orderDeliveryLog } from '../../db/repositories/webhook-deliveries';
import { payingMerchant } from '../access';
import { principalOf } from '../middleware/authenticate';
import { orderByReference } from '../order-reference';
import { apiRouter } from '../router';
import { parseInput } from '../validation';

export const orderDeliveriesQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

/**
 * GET /v1/orders/{id}/webhook-deliveries: the webhooks sent about one of the merchant's orders,
 * to the merchant's own endpoints, with every attempt (what the dashboard's order page shows). An
 * order of another merchant is 404 order_not_found, as on the lookup.
 */
export function orderWebhookDeliveryRoutes(deps: { db: Db; rateLimit: Middleware }): Router {
  const router = apiRouter();
  router.get('/v1/orders/:id/webhook-deliveries', deps.rateLimit, async (ctx) => {
    const merchantId = payingMerchant(principalOf(ctx.state));
    const { limit } = parseInput(orderDeliveriesQuery, ctx.query);
    const order = await orderByReference(ctx, deps.db, merchantId, ctx.params.id);
    ctx.body = { orderId: order.id, data: await orderDeliveryLog(deps.db, merchantId, order.id, limit) };
  });
  return router;
}
