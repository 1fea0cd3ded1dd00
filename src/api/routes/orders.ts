import { createHash } from 'node:crypto';
import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { z } from 'zod';
import type { Environment } from '../../config';
import type { Db } from '../../db/knex';
import { vaultCard } from '../../db/repositories/card-vault';
import { getMerchantSettings } from '../../db/repositories/merchants';
import {
  findMerchantOrder,
  findMerchantOrderByExternalId,
  type OrderRow,
  orderView,
} from '../../db/repositories/orders';
import type { Clock } from '../../domain/clock';
import { ApiError } from '../../domain/errors';
import { derivedUuid } from '../../domain/ids';
import { majorToMinor } from '../../domain/money';
import type { CommandRefusal, EvaluateInput } from '../../domain/orders/contracts';
import { evaluateRequest } from '../../domain/orders/evaluate-request';
import { ORDER_STATUS, type OrderStatusName, outcomeForStatus } from '../../domain/orders/status';
import { orderWorkflowId } from '../../domain/orders/workflow-ids';
import { cardFingerprints, type VaultKey } from '../../domain/vault-cipher';
import type { Logger } from '../../logger';
import { CLOSED, type OrderClient } from '../../orders/order-client';
import { cancelUpdate, captureUpdate } from '../../workflows';
import { payingMerchant } from '../access';
import { checkCardForVault } from '../card-checks';
import { type Answer, idempotent } from '../idempotency';
import { principalOf } from '../middleware/authenticate';
import { parseInput } from '../validation';

const MAX_RESCUE_WINDOW_MS = 21 * 24 * 3_600_000;
const uuid = z.uuid();
const captureBody = z.object({
  idempotencyKey: z.uuid('must be a GUID'),
  orderId: z.uuid('must be the orderId returned by evaluate'),
  amount: z.number().int().positive().optional(),
});
const optionalKeyBody = z.object({ idempotencyKey: z.uuid('must be a GUID').optional() });
const refundBody = z.object({
  idempotencyKey: z.uuid('must be a GUID').optional(),
  amountToRefund: z.union([z.number().nonnegative(), z.string().max(32)]).optional(),
});

const REFUSALS: Record<CommandRefusal['reason'], ConstructorParameters<typeof ApiError>[0]> = {
  not_capturable: 'order_not_capturable',
  not_cancellable: 'order_not_cancellable',
  not_refundable: 'order_not_refundable',
  refund_exceeds_captured: 'refund_exceeds_captured',
  capture_exceeds_authorized: 'capture_exceeds_authorized',
  not_in_challenge: 'order_not_in_challenge',
};

export function refusal(reason: CommandRefusal['reason'], status: OrderStatusName): ApiError {
  return new ApiError(REFUSALS[reason], { extra: { orderStatus: ORDER_STATUS[status], orderStatusName: status } });
}

export interface OrderRouteDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  environment: Environment;
  vaultKeys: VaultKey[];
  workflows: OrderClient;
  rateLimit: Middleware;
}

/**
 * The payment endpoints: evaluate, capture, cancel, external-cancel, refund and order lookup
 * (docs/orders.md). Every command goes to the order's workflow; lookups read Postgres.
 */
export function orderRoutes(deps: OrderRouteDeps): Router {
  const router = new Router();
  const { db, clock } = deps;
  const merchantOf = (ctx: Context) => payingMerchant(principalOf(ctx.state));
  const principal = (ctx: Context) => principalOf(ctx.state);

  async function visibleOrder(ctx: Context, id: string | undefined): Promise<OrderRow> {
    const order = id && uuid.safeParse(id).success ? await findMerchantOrder(db, merchantOf(ctx), id) : undefined;
    if (!order) throw new ApiError('order_not_found');
    return order;
  }

  // ---- POST /v1/evaluate
  router.post('/v1/evaluate', deps.rateLimit, async (ctx) => {
    const merchantId = merchantOf(ctx);
    const now = clock.now();
    const body = parseInput(evaluateRequest, ctx.request.body);
    const externalOrderId = (body.externalOrderId ?? body.orderId) as string;
    const declinedAt = body.transaction.declinedAtUtc ? new Date(body.transaction.declinedAtUtc) : now;
    if (declinedAt.getTime() > now.getTime() + 5 * 60_000) {
      throw new ApiError('validation_failed', {
        field: 'transaction.declinedAtUtc',
        message: 'transaction.declinedAtUtc: must not be in the future',
      });
    }
    if (body.expiryDateUtc) {
      const expiry = Date.parse(body.expiryDateUtc);
      // A further evaluate of an existing order may come after its window (Sync MIT: DECLINED).
      const isNewOrder = !(await findMerchantOrderByExternalId(db, merchantId, externalOrderId));
      if (isNewOrder && expiry <= now.getTime()) {
        throw new ApiError('validation_failed', {
          field: 'expiryDateUtc',
          message: 'expiryDateUtc: must be in the future',
        });
      }
      if (expiry > declinedAt.getTime() + MAX_RESCUE_WINDOW_MS) {
        throw new ApiError('validation_failed', {
          field: 'expiryDateUtc',
          message: 'expiryDateUtc: must be at most 21 days after the original decline',
        });
      }
    }
    const settings = await getMerchantSettings(db, merchantId);
    if (body.transactionType === 'AUTHORIZATION' && !settings.authorizeCapability)
      throw new ApiError('authorize_capability_required');
    const rawCard = body.paymentMethod.cardNumber
      ? checkCardForVault(
          {
            cardNumber: body.paymentMethod.cardNumber,
            expiryMonth: body.paymentMethod.expiryMonth as number,
            expiryYear: body.paymentMethod.expiryYear as number,
          },
          deps.environment,
          now,
          'paymentMethod',
        )
      : undefined;
    const tokenCard = body.paymentMethod.token
      ? await db('card_vault').where({ token: body.paymentMethod.token, merchant_id: merchantId }).first()
      : undefined;
    if (body.paymentMethod.token && !tokenCard) {
      throw new ApiError('validation_failed', {
        field: 'paymentMethod.token',
        message: 'paymentMethod.token: no such token for this merchant',
      });
    }

    // The request as hashed for idempotency: a raw card number enters only as its fingerprint.
    const { holderName: _holder, cardNumber: _number, ...pm } = body.paymentMethod;
    const hashed = {
      ...body,
      paymentMethod: {
        ...pm,
        ...(rawCard ? { card: cardFingerprints(rawCard.pan, merchantId, deps.vaultKeys)[0] } : {}),
      },
      payer: body.payer ? hashPayer(body.payer) : undefined,
    };

    await idempotent(
      ctx,
      deps,
      { merchantId, operation: 'evaluate', key: body.idempotencyKey, request: hashed },
      async (): Promise<Answer> => {
        const card = rawCard
          ? (
              await vaultCard(
                db,
                {
                  merchantId,
                  pan: rawCard.pan,
                  brand: rawCard.brand,
                  expiryMonth: body.paymentMethod.expiryMonth as number,
                  expiryYear: body.paymentMethod.expiryYear as number,
                },
                deps.vaultKeys,
              )
            ).card
          : { token: tokenCard.token, brand: tokenCard.brand, bin: tokenCard.bin, last4: tokenCard.last4 };
        const flow = !body.isMIT ? 'CIT' : settings.mitEvaluation === 'sync' ? 'SYNC_MIT' : 'ASYNC_MIT';
        const input: EvaluateInput = {
          receivedAtUtc: now.toISOString(),
          flow,
          transactionType: body.transactionType,
          isMIT: body.isMIT,
          isRecurring: body.isRecurring,
          intervalCount: body.subscription?.intervalCount ?? null,
          attemptCount: body.attemptCount ?? null,
          expiryDateUtc: body.expiryDateUtc ?? null,
          declinedAtUtc: declinedAt.toISOString(),
          amount: body.transaction.amount,
          currency: body.transaction.currency,
          responseCode: body.transaction.responseCode ?? null,
          card: { token: card.token, brand: card.brand, bin: card.bin, last4: card.last4 },
          senseKey: body.senseKey ?? null,
          siteId: body.siteId ?? null,
          threeDSecure: body.threeDSecure ?? null,
          settings,
        };
        const result = await deps.workflows.evaluate(
          { merchantId, partnerId: principal(ctx).partnerId, isTestMode: deps.environment === 'sandbox' },
          externalOrderId,
          input,
        );
        if (result === CLOSED) return closedOrderEvaluate(merchantId, externalOrderId);
        if (result.kind === 'rescue_unavailable') throw new ApiError('rescue_unavailable');
        return {
          status: 200,
          body: {
            orderId: result.orderId,
            orderSessionKey: result.orderSessionKey,
            externalOrderId,
            outcome: result.outcome,
            status: ORDER_STATUS[result.status],
            statusName: result.status,
          },
        };
      },
    );
  });

  /** Evaluate for an order whose workflow has closed: Sync MIT past its cutoff is DECLINED. */
  async function closedOrderEvaluate(merchantId: string, externalOrderId: string): Promise<Answer> {
    const order = await findMerchantOrderByExternalId(db, merchantId, externalOrderId);
    if (!order) throw new ApiError('internal_error');
    if (order.status_name === 'Problem') throw new ApiError('rescue_unavailable');
    const outcome = order.flow === 'SYNC_MIT' ? 'DECLINED' : outcomeForStatus(order.status_name);
    return {
      status: 200,
      body: {
        orderId: order.id,
        orderSessionKey: order.order_session_key,
        externalOrderId,
        outcome,
        status: order.status,
        statusName: order.status_name,
      },
    };
  }

  // ---- POST /v1/capture
  router.post('/v1/capture', deps.rateLimit, async (ctx) => {
    const merchantId = merchantOf(ctx);
    const body = parseInput(captureBody, ctx.request.body);
    await idempotent(
      ctx,
      deps,
      { merchantId, operation: 'capture', key: body.idempotencyKey, request: body },
      async () => {
        const order = await visibleOrder(ctx, body.orderId);
        const result = await deps.workflows.command(order.workflow_id, captureUpdate, { amount: body.amount ?? null });
        if (result === CLOSED) throw refusal('not_capturable', order.status_name);
        if (result.kind === 'refused') throw refusal(result.reason, result.status);
        const updated = (await findMerchantOrder(db, merchantId, order.id)) as OrderRow;
        return { status: 200, body: orderView(updated) };
      },
    );
  });

  // ---- cancel and external-cancel: the same operation on the same order
  async function cancel(
    ctx: Context,
    find: () => Promise<OrderRow | undefined>,
    workflowId: (o?: OrderRow) => string,
    via: 'cancel' | 'external-cancel',
  ) {
    const merchantId = merchantOf(ctx);
    const body = parseInput(optionalKeyBody, ctx.request.body);
    const order = await find();
    await idempotent(
      ctx,
      deps,
      { merchantId, operation: `cancel:${order?.id ?? workflowId()}`, key: body.idempotencyKey, request: body },
      async () => {
        const result = await deps.workflows.command(workflowId(order), cancelUpdate, { via });
        if (result === CLOSED) {
          const settled = await find();
          if (!settled) throw new ApiError('order_not_found');
          if (settled.status_name !== 'Cancelled') throw refusal('not_cancellable', settled.status_name);
        } else if (result.kind === 'refused') {
          throw refusal(result.reason, result.status);
        }
        return { status: 200 }; // empty body, as the interface states
      },
    );
  }

  router.post('/v1/orders/:id/cancel', deps.rateLimit, async (ctx) => {
    const order = await visibleOrder(ctx, ctx.params.id);
    await cancel(
      ctx,
      () => findMerchantOrder(db, order.merchant_id, order.id),
      () => order.workflow_id,
      'cancel',
    );
  });

  router.post('/v1/orders/:externalOrderId/external-cancel', deps.rateLimit, async (ctx) => {
    const merchantId = merchantOf(ctx);
    const externalOrderId = ctx.params.externalOrderId as string;
    // Usable when the orderId was never received: the workflow id derives from the merchant's own id.
    await cancel(
      ctx,
      () => findMerchantOrderByExternalId(db, merchantId, externalOrderId),
      () => orderWorkflowId(merchantId, externalOrderId),
      'external-cancel',
    );
  });

  // ---- POST /v1/orders/{id}/refund
  router.post('/v1/orders/:id/refund', deps.rateLimit, async (ctx) => {
    const merchantId = merchantOf(ctx);
    const body = parseInput(refundBody, ctx.request.body);
    const order = await visibleOrder(ctx, ctx.params.id);
    let amount: number | null = null;
    if (body.amountToRefund !== undefined) {
      amount = majorToMinor(body.amountToRefund, order.currency) ?? null;
      if (amount === null || amount <= 0) {
        throw new ApiError('validation_failed', {
          field: 'amountToRefund',
          message: `amountToRefund: must be a positive amount in ${order.currency} major units with at most its minor-unit decimals`,
        });
      }
    }
    const partial = amount !== null && amount !== order.captured_amount;
    if (partial && !body.idempotencyKey) throw new ApiError('idempotency_key_required', { field: 'idempotencyKey' });
    await idempotent(
      ctx,
      deps,
      { merchantId, operation: `refund:${order.id}`, key: body.idempotencyKey, request: body },
      async () => {
        // The refund's id is a function of the refund: the full refund of this order, or this
        // order's partial refund under this idempotencyKey. Asked twice, it is one refund.
        const key = body.idempotencyKey ?? null;
        const result = await deps.workflows.refund({
          refundId: derivedUuid('refund', order.id, partial ? `partial:${key}` : 'full'),
          orderId: order.id,
          merchantId,
          kind: partial ? 'partial' : 'full',
          amount,
          idempotencyKey: key,
        });
        if (result.kind === 'refused') throw refusal(result.reason, result.status);
        return {
          status: 200,
          body: refundView(order, result.transactionId, result.amount, result.refundedAmount, result.status),
        };
      },
    );
  });

  function refundView(
    order: OrderRow,
    transactionId: string,
    amount: number,
    refundedTotal: number,
    status: OrderStatusName,
  ) {
    return {
      orderId: order.id,
      transactionId,
      amount,
      refundedAmount: refundedTotal,
      currency: order.currency,
      status: ORDER_STATUS[status],
      statusName: status,
    };
  }

  // ---- GET /v1/orders/{id}
  router.get('/v1/orders/:id', deps.rateLimit, async (ctx) => {
    ctx.body = orderView(await visibleOrder(ctx, ctx.params.id));
  });

  return router;
}

/** Payer data is minimised before it is hashed or kept: a hash of the e-mail, the IP's network. */
function hashPayer(payer: { email?: string; ipAddress?: string }) {
  return {
    email: payer.email ? createHash('sha256').update(payer.email.trim().toLowerCase()).digest('hex') : undefined,
    ipAddress: payer.ipAddress,
  };
}
