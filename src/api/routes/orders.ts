import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { z } from 'zod';
import { REPLAY_WINDOW_MS } from '../../db/repositories/idempotency';
import { findMerchantOrder, findMerchantOrderByExternalId, type OrderRow } from '../../db/repositories/orders';
import { findRefund } from '../../db/repositories/refund-lookups';
import { ApiError } from '../../domain/errors';
import { idempotencyKeyField } from '../../domain/ids';
import { majorToMinor } from '../../domain/money';
import { evaluateRequest, orderRef, withoutNulls } from '../../domain/orders/evaluate-request';
import { refused } from '../../domain/orders/order-failure';
import { isRefundable } from '../../domain/orders/transitions';
import { orderWorkflowId } from '../../domain/orders/workflow-ids';
import type { Logger } from '../../logger';
import { cancelOrder, captureOrder, partialRefundKey, refundIdOf, refundOrder } from '../../orders/commands';
import type { OrderDeps } from '../../orders/deps';
import { planEvaluate } from '../../orders/evaluate';
import { orderLookup } from '../../orders/order-lookup';
import { processorTakesAmount } from '../../processors/stripe-amounts';
import { payingMerchant } from '../access';
import { evaluateCounter } from '../evaluate-metrics';
import { idempotent } from '../idempotency';
import { principalOf } from '../middleware/authenticate';
import { orderShownTo } from '../middleware/dashboard-link';
import { cancelAnswer, captureAnswer, evaluateAnswer, refundAnswer } from '../order-answers';
import { apiErrorOf } from '../order-failures';
import { orderByReference } from '../order-reference';
import { apiRouter } from '../router';
import { parseInput } from '../validation';

const _uuid = z.uuid();
export const captureBody = z.preprocess(
  withoutNulls,
  z.object({
    idempotencyKey: idempotencyKeyField,
    orderId: z.uuid('must be the orderId (or orderSessionKey) returned by evaluate'),
    amount: z.number().int().positive().optional(),
    /** FlexCharge sends the authorization's currency: it must be the order's. */
    currency: z.string().max(3).optional(),
  }),
);
export const optionalKeyBody = z.preprocess(withoutNulls, z.object({ idempotencyKey: idempotencyKeyField.optional() }));
export const refundBody = z.preprocess(
  withoutNulls,
  z.object({
    idempotencyKey: idempotencyKeyField.optional(),
    amountToRefund: z.union([z.number().nonnegative(), z.string().max(32)]).optional(),
    /** The vendor's Node sample states the refund's kind; the amount still decides it. */
    isPartialRefund: z.boolean().optional(),
  }),
);

/**
 * A capture or refund amount the order's processor cannot take exactly (Stripe's units:
 * src/processors/stripe-amounts.ts) is refused before anything is reserved: at the processor it
 * would be refused for good, and never rounded.
 */
function refuseAmountNotTaken(order: OrderRow, amount: number, field: 'amount' | 'amountToRefund'): void {
  if (processorTakesAmount(order.authorization_id, amount, order.currency)) return;
  throw new ApiError('validation_failed', {
    field,
    message: `${field}: the order's processor cannot take this ${order.currency} amount exactly (docs/processors.md)`,
  });
}

export type OrderRouteDeps = OrderDeps & {
  logger: Logger;
  rateLimit: Middleware;
  /** Evaluate's rate limit, taken with its idempotency claim (src/api/middleware/rate-limit.ts); else rateLimit. */
  evaluateRateLimit?: Middleware;
};

/**
 * The payment endpoints (docs/orders.md): parse, run the use case (src/orders/) under the
 * caller's idempotency key, shape what it returns into the answer (src/api/order-answers.ts; its
 * typed failures: src/api/order-failures.ts), send it. Lookups read Postgres.
 */
export function orderRoutes(deps: OrderRouteDeps): Router {
  const router = apiRouter();
  const merchantOf = (ctx: Context) => payingMerchant(principalOf(ctx.state));

  const visibleOrder = (ctx: Context, id: string | undefined): Promise<OrderRow> =>
    orderByReference(ctx, deps.db, merchantOf(ctx), id);

  router.post('/v1/evaluate', deps.evaluateRateLimit ?? deps.rateLimit, async (ctx) => {
    const acting = { merchantId: merchantOf(ctx), partnerId: principalOf(ctx.state).partnerId };
    const body = parseInput(evaluateRequest, ctx.request.body);
    const counter = evaluateCounter(deps.workflows);
    const plan = planEvaluate({ ...deps, workflows: counter.workflows }, acting, body);
    const scope = {
      merchantId: acting.merchantId,
      operation: 'evaluate',
      key: body.idempotencyKey,
      request: plan.hashed,
      reads: { query: plan.reads, check: plan.check },
    };
    counter.count(await idempotent(ctx, deps, scope, () => plan.run().then(evaluateAnswer)));
  });

  router.post('/v1/capture', deps.rateLimit, async (ctx) => {
    const merchantId = merchantOf(ctx);
    const body = parseInput(captureBody, ctx.request.body);
    // Checked before the key is claimed, so a refused request stores nothing and its mend may reuse the key.
    const order = await visibleOrder(ctx, body.orderId);
    // ActiveMerchant's FlexCharge gateway names every authorization `orderId#USD` (its default
    // currency: evaluate has no top-level currency) and captures in that currency; USD on another
    // currency's order is taken as that default (docs/compatibility.md). Any other mismatch is refused.
    const mismatch = body.currency !== undefined && body.currency.toUpperCase() !== order.currency;
    if (mismatch && body.currency?.toUpperCase() !== 'USD') {
      throw new ApiError('validation_failed', {
        field: 'currency',
        message: `currency: must be the order's currency (${order.currency})`,
      });
    }
    if (body.amount !== undefined) refuseAmountNotTaken(order, body.amount, 'amount');
    const scope = { merchantId, operation: 'capture', key: body.idempotencyKey, request: body };
    await idempotent(ctx, deps, scope, async () =>
      captureAnswer(await captureOrder(deps, order, body.amount ?? null, body.idempotencyKey)),
    );
  });

  router.post('/v1/orders/:id/cancel', deps.rateLimit, async (ctx) => {
    const body = parseInput(optionalKeyBody, ctx.request.body);
    const order = await visibleOrder(ctx, ctx.params.id);
    // Scoped by the order's workflow, as external-cancel is: the two collapse into one operation.
    const scope = {
      merchantId: order.merchant_id,
      operation: `cancel:${order.workflow_id}`,
      key: body.idempotencyKey,
      request: body,
    };
    const find = () => findMerchantOrder(deps.db, order.merchant_id, order.id);
    await idempotent(ctx, deps, scope, () => cancelOrder(deps, order.workflow_id, find, 'cancel').then(cancelAnswer));
  });

  // Usable when the orderId was never received: the workflow id derives from the merchant's own id.
  router.post('/v1/orders/:externalOrderId/external-cancel', deps.rateLimit, async (ctx) => {
    const merchantId = merchantOf(ctx);
    const body = parseInput(optionalKeyBody, ctx.request.body);
    // Read as evaluate reads it; one evaluate could not have taken names no order (nor a workflow id).
    const ref = orderRef.safeParse(ctx.params.externalOrderId);
    if (!ref.success) throw new ApiError('order_not_found');
    const externalOrderId = ref.data;
    const find = () => findMerchantOrderByExternalId(deps.db, merchantId, externalOrderId);
    const workflowId = orderWorkflowId(merchantId, externalOrderId);
    // The workflow id, known whether or not the order's row exists yet: one scope before and after.
    const scope = { merchantId, operation: `cancel:${workflowId}`, key: body.idempotencyKey, request: body };
    await idempotent(ctx, deps, scope, () => cancelOrder(deps, workflowId, find, 'external-cancel').then(cancelAnswer));
  });

  router.post('/v1/orders/:id/refund', deps.rateLimit, async (ctx) => {
    const body = parseInput(refundBody, ctx.request.body);
    const order = await visibleOrder(ctx, ctx.params.id);
    let amount: number | null = null;
    if (body.isPartialRefund === true && body.amountToRefund === undefined) {
      throw new ApiError('validation_failed', {
        field: 'amountToRefund',
        message: 'amountToRefund: is required with isPartialRefund',
      });
    }
    if (body.amountToRefund !== undefined) {
      amount = majorToMinor(body.amountToRefund, order.currency) ?? null;
      if (amount === null || amount <= 0) {
        throw new ApiError('validation_failed', {
          field: 'amountToRefund',
          message: `amountToRefund: must be a positive amount in ${order.currency} major units with at most its minor-unit decimals`,
        });
      }
    }
    if (amount !== null) refuseAmountNotTaken(order, amount, 'amountToRefund');
    const partial = amount !== null && amount !== order.captured_amount;
    ctx.state.refundKind = partial ? 'partial' : 'full';
    if (partial && !body.idempotencyKey) {
      // The order's own refusals first (its ledger decides them again under its lock): a key the
      // FlexCharge clients cannot send is not what to mend for a refund they could never make.
      if (!isRefundable(order.flow, order.status_name)) throw apiErrorOf(refused('not_refundable', order.status_name));
      if ((amount ?? 0) > order.captured_amount - order.refunded_amount)
        throw apiErrorOf(refused('refund_exceeds_captured', order.status_name));
      throw new ApiError('idempotency_key_required', { field: 'idempotencyKey' });
    }
    // A partial refund's key names one refund for good. Sent again with another amount after its
    // first answer was lost (which frees the key), or at all once the key's 24 hours have passed
    // (a new request then, whose refund id the first holds), it is the key reused (409002), checked
    // before the claim so nothing is stored: never the first refund's 200 for a refund not made.
    const sent = (ctx.request.body as { idempotencyKey?: unknown } | undefined)?.idempotencyKey;
    const key = body.idempotencyKey && (await partialRefundKey(deps.db, order.id, body.idempotencyKey, sent));
    if (partial && key) {
      const earlier = await findRefund(deps.db, order.id, refundIdOf(order.id, key));
      const replayable = earlier && deps.clock.now().getTime() - earlier.created_at.getTime() < REPLAY_WINDOW_MS;
      if (earlier && (earlier.amount !== amount || !replayable)) throw new ApiError('idempotency_key_reused');
    }
    const idempotencyKey = key ?? null;
    const scope = {
      merchantId: order.merchant_id,
      operation: `refund:${order.id}`,
      key: body.idempotencyKey,
      request: body,
    };
    await idempotent(ctx, deps, scope, () =>
      refundOrder(deps, order, { amount, partial, idempotencyKey }).then(refundAnswer),
    );
  });

  router.get('/v1/orders/:id', deps.rateLimit, async (ctx) => {
    const order = await visibleOrder(ctx, ctx.params.id);
    ctx.body = orderShownTo(
      ctx.state.principal,
      await orderLookup(deps.db, order, deps.clock.now(), deps.networkRegion),
    );
  });

  return router;
}
