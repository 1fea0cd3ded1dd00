import Router from '@koa/router';
import type { Middleware } from 'koa';
import { z } from 'zod';
import type { Db } from '../../db/knex';
import { ApiError } from '../../domain/errors';
import { ORDER_STATUS } from '../../domain/orders/status';
import { refusal } from '../../orders/commands';
import { CLOSED, type OrderClient } from '../../orders/order-client';
import { challengeUpdate } from '../../workflows';
import { parseInput } from './../validation';

export const params = z.object({ orderSessionKey: z.uuid(), result: z.enum(['attempted', 'passed', 'failed']) });

/**
 * POST /v1/challenges/{orderSessionKey}/{attempted|passed|failed}: the cardholder challenge
 * component reports what happened. No bearer token: the component runs in the shopper's browser,
 * and the orderSessionKey (returned by evaluate, unguessable) is what authorizes it, for that one
 * order only. Passed leads to the charge (order.completed), failed to a decline.
 */
export function challengeRoutes(deps: { db: Db; workflows: OrderClient; rateLimit: Middleware }): Router {
  const router = new Router();
  router.post('/v1/challenges/:orderSessionKey/:result', async (ctx) => {
    const { orderSessionKey, result } = parseInput(params, ctx.params);
    const order = await deps.db('orders').where({ order_session_key: orderSessionKey }).first();
    if (!order) throw new ApiError('order_not_found');
    ctx.state.merchantId = order.merchant_id;
    await deps.rateLimit(ctx, async () => {
      const answer = await deps.workflows.command(order.workflow_id, challengeUpdate, { result });
      if (answer === CLOSED) throw refusal('not_in_challenge', order.status_name);
      if (answer.kind === 'refused') throw refusal(answer.reason, answer.status);
      ctx.body = {
        orderId: order.id,
        status: ORDER_STATUS[answer.status],
        statusName: answer.status,
        outcome: answer.outcome,
      };
    });
  });
  return router;
}
