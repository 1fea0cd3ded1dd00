import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { z } from 'zod';
import type { Db } from '../../db/knex';
import { ApiError } from '../../domain/errors';
import { refused } from '../../domain/orders/order-failure';
import { ORDER_STATUS } from '../../domain/orders/status';
import { prepareChallengeReport } from '../../orders/challenge-report';
import type { OrderClient } from '../../orders/order-client';
import { apiErrorOf } from '../order-failures';
import { apiRouter } from '../router';
import { parseInput } from './../validation';

export const params = z.object({ orderSessionKey: z.uuid(), result: z.enum(['attempted', 'passed', 'failed']) });

/**
 * POST /v1/challenges/{orderSessionKey}/{attempted|passed|failed}: the cardholder challenge
 * component reports what happened. No bearer token: the component runs in the shopper's browser,
 * and the orderSessionKey (returned by evaluate, unguessable) is what authorizes it, for that one
 * order only. The use case (src/orders/challenge-report.ts) decides; this maps its result to HTTP.
 */
export function challengeRoutes(deps: { db: Db; workflows: OrderClient; rateLimit: Middleware }): Router {
  const router = apiRouter();
  router.post('/v1/challenges/:orderSessionKey/:result', async (ctx) => {
    const { orderSessionKey, result } = parseInput(params, ctx.params);
    const report = await prepareChallengeReport(deps, orderSessionKey, result);
    if (!report) throw new ApiError('order_not_found');
    ctx.state.merchantId = report.merchantId;
    await deps.rateLimit(ctx, async () => {
      const reported = await report.run();
      if (reported.kind === 'refused') throw apiErrorOf(refused(reported.reason, reported.status));
      ctx.body = {
        orderId: reported.orderId,
        status: ORDER_STATUS[reported.status],
        statusName: reported.status,
        outcome: reported.outcome,
      };
    });
  });
  return router;
}
