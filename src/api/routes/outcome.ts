import Router from '@koa/router';
import type { Middleware } from 'koa';
import { z } from 'zod';
import { ApiError } from '../../domain/errors';
import { parseInput } from '../validation';

const body = z.object({ orderId: z.uuid() });

/**
 * POST /v1/outcome: deprecated alias of GET /v1/orders/{id} (body { orderId }), kept working for
 * existing integrations and left out of the documentation's navigation. Every answer carries
 * `Deprecation: true` and a `Link` to its successor.
 */
export function outcomeRoutes(deps: { rateLimit: Middleware }): Router {
  const router = new Router();
  router.post(
    '/v1/outcome',
    async (ctx, next) => {
      ctx.set('Deprecation', 'true');
      const { orderId } = parseInput(body, ctx.request.body);
      ctx.set('Link', `</v1/orders/${orderId}>; rel="successor-version"`);
      await deps.rateLimit(ctx, next);
    },
    async () => {
      // Orders arrive with the orders work; until then no order exists to be found.
      throw new ApiError('order_not_found');
    },
  );
  return router;
}
