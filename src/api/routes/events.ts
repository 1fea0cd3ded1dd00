import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import type { Client } from '@temporalio/client';
import { z } from 'zod';
import type { Db } from '../../db/knex';
import { subscribedEndpoints } from '../../db/repositories/webhook-endpoints';
import { ApiError } from '../../domain/errors';
import { derivedUuid } from '../../domain/ids';
import { webhookDeliveryWorkflow } from '../../workflows';
import { principalOf } from '../middleware/authenticate';
import { parseInput } from '../validation';
import { endpointOwner } from './webhooks';

const listQuery = z.object({
  since: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 timestamp' }).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

/**
 * GET /v1/events?since=...: the owner's events, oldest first, to catch up after an outage.
 * POST /v1/events/{eventId}/resend: delivers an event again to the owner's subscribed endpoints,
 * every attempt with IsResent true and the delivery's unchanged IdempotencyKey.
 */
export function eventRoutes(deps: { db: Db; client: Client; taskQueue: string }): Router {
  const router = new Router();

  // A merchant's events, or a partner's own (application events, whose Mid appears on conversion).
  const ownedEvents = (owner: ReturnType<typeof endpointOwner>) => {
    const q = deps.db('events').where({ partner_id: owner.partnerId });
    return owner.merchantId
      ? q.andWhere({ merchant_id: owner.merchantId }).andWhereNot('name', 'like', 'application.%')
      : q.andWhere('name', 'like', 'application.%');
  };

  router.get('/v1/events', async (ctx) => {
    const { since, limit } = parseInput(listQuery, ctx.query);
    const q = ownedEvents(endpointOwner(principalOf(ctx.state)))
      .orderBy('sequence', 'asc')
      .limit(limit);
    if (since) q.andWhere('occurred_at', '>=', since);
    const rows = await q;
    ctx.body = {
      data: rows.map((e) => ({
        EventId: e.id,
        Event: e.name,
        TimeStamp: e.occurred_at.toISOString(),
        EventData: e.data ?? null,
        Mid: e.merchant_id,
        Pid: e.partner_id,
        ExternalOrderId: e.external_order_id,
        OrderId: e.order_id,
        ConfirmationId: e.confirmation_id,
        IsTestMode: e.is_test_mode,
      })),
      // Pass the last TimeStamp back as `since` for the next page (events at that instant repeat: de-duplicate by EventId).
      next: rows.length === limit ? rows[rows.length - 1]?.occurred_at.toISOString() : null,
    };
  });

  router.post('/v1/events/:eventId/resend', async (ctx) => {
    const owner = endpointOwner(principalOf(ctx.state));
    const eventId = ctx.params.eventId as string;
    const event = z.uuid().safeParse(eventId).success
      ? await ownedEvents(owner).andWhere({ id: eventId }).first()
      : undefined;
    if (!event) throw new ApiError('event_not_found');
    const endpoints = await subscribedEndpoints(deps.db, owner, event.name);
    const deliveries = endpoints.map((endpoint) => ({
      id: derivedUuid(event.id, endpoint.id),
      event_id: event.id,
      endpoint_id: endpoint.id,
      status: 'pending',
    }));
    if (deliveries.length) {
      await deps
        .db('webhook_deliveries')
        .insert(deliveries)
        .onConflict(['event_id', 'endpoint_id'])
        .merge({ status: 'pending' });
    }
    for (const delivery of deliveries) {
      await deps.client.workflow.start(webhookDeliveryWorkflow, {
        workflowId: `webhook-resend:${delivery.id}:${randomUUID()}`,
        taskQueue: deps.taskQueue,
        args: [{ deliveryId: delivery.id, resend: true }],
      });
    }
    ctx.status = 202;
    ctx.body = {
      eventId: event.id,
      deliveries: deliveries.map((d) => ({ deliveryId: d.id, endpointId: d.endpoint_id })),
    };
  });
  return router;
}
