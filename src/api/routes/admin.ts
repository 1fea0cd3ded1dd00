import type Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import type { Environment } from '../../config';
import type { Db } from '../../db/knex';
import { findApplication } from '../../db/repositories/applications';
import { recordDispute, reverseChargeback } from '../../db/repositories/disputes';
import { findOrderById } from '../../db/repositories/order-lookups';
import type { Clock } from '../../domain/clock';
import { ApiError } from '../../domain/errors';
import { guardRoutes } from '../guard';
import { adminAuth } from '../middleware/admin-auth';
import { apiRouter } from '../router';
import { parseInput } from '../validation';
import { runTransition } from './applications';

export const disputeBody = z.object({
  reason: z.string().trim().min(1).max(500),
  amount: z.number().int().positive().optional(),
  /** A card-network rapid dispute resolution: still a chargeback, never order.refunded. */
  rapidDisputeResolution: z.boolean().optional(),
});

/**
 * The operators' back office (admin credential, docs/webhooks.md): decide partner applications,
 * and bring in what the card networks report (chargebacks, their reversals, early warnings).
 */
export function adminRoutes(deps: {
  db: Db;
  clock: Clock;
  environment: Environment;
  adminToken: string | undefined;
}): Router {
  const router = apiRouter();
  const isTestMode = deps.environment === 'sandbox';

  async function application(ctx: Context) {
    const id = ctx.params.id as string;
    const app = z.uuid().safeParse(id).success ? await findApplication(deps.db, id) : undefined;
    if (!app) throw new ApiError('application_not_found');
    return app;
  }
  for (const action of ['approve', 'decline', 'convert'] as const) {
    router.post(`/v1/admin/applications/:id/${action}`, async (ctx) =>
      runTransition(deps, ctx, await application(ctx), action),
    );
  }

  async function order(ctx: Context) {
    const id = ctx.params.orderId as string;
    const row = z.uuid().safeParse(id).success ? await findOrderById(deps.db, id) : undefined;
    if (!row) throw new ApiError('order_not_found');
    return row;
  }
  for (const [path, kind] of [
    ['chargebacks', 'chargeback'],
    ['early-warnings', 'early_warning'],
  ] as const) {
    router.post(`/v1/admin/orders/:orderId/${path}`, async (ctx) => {
      const row = await order(ctx);
      const input = parseInput(disputeBody, ctx.request.body);
      const reason = input.rapidDisputeResolution ? `Rapid Dispute Resolution: ${input.reason}` : input.reason;
      const amount = input.amount ?? (row.captured_amount || row.amount);
      const dispute = await recordDispute(deps.db, row, { kind, reason, amount, at: deps.clock.now(), isTestMode });
      ctx.status = 201;
      ctx.body = { id: dispute.id, kind, orderId: row.id, status: 'received', eventData: dispute.data };
    });
  }
  router.post('/v1/admin/chargebacks/:id/reverse', async (ctx) => {
    const id = ctx.params.id as string;
    const result = z.uuid().safeParse(id).success
      ? await reverseChargeback(deps.db, id, deps.clock.now(), isTestMode)
      : undefined;
    if (!result) throw new ApiError('event_not_found', { message: 'The specified chargeback could not be located.' });
    if (result.refused) throw new ApiError('chargeback_not_reversible');
    ctx.body = { id, kind: 'chargeback', status: 'reversed', eventData: result.data };
  });
  return guardRoutes(router, adminAuth(deps.adminToken));
}
