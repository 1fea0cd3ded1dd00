import { randomUUID } from 'node:crypto';
import type Router from '@koa/router';
import type { Client } from '@temporalio/client';
import { z } from 'zod';
import type { Db } from '../../db/knex';
import { recordTestEvent } from '../../db/repositories/webhook-test-events';
import type { Clock } from '../../domain/clock';
import { ApiError } from '../../domain/errors';
import { derivedUuid } from '../../domain/ids';
import { EVENT_NAMES, type EventName, isEventName } from '../../domain/webhooks/event-names';
import { testEventSample } from '../../domain/webhooks/test-events';
import { signalEndpoints } from '../../outbox-relay';
import { principalOf } from '../middleware/authenticate';
import { parseInput } from '../validation';
import { findOwnedEndpoint } from './webhooks';

/** Body of POST /v1/webhooks/{id}/test: the event type to send, order.completed unless named. */
export const testEventBody = z.object({
  event: z
    .string()
    .max(64)
    .refine(isEventName, { message: `must be one of ${EVENT_NAMES.join(', ')}` })
    .default('order.completed'),
});

/**
 * POST /v1/webhooks/{id}/test: sends a signed test event of a chosen type to that one endpoint,
 * through the normal durable delivery (a delivery row, due now, and its endpoint's workflow: same signing,
 * retries and delivery log). The event is stored marked as a test, already dispatched, so the
 * outbox relay does not fan it out and GET /v1/events does not list it. Its envelope is a real one
 * with IsTestMode true, a sample EventData and an ExternalOrderId starting `fc-test-`; the request
 * carries `x-fc-test: true`. Answers 202 with the delivery id (the delivery log shows its attempts).
 */
export function addWebhookTestEventRoute(
  router: Router,
  deps: { db: Db; client: Client; taskQueue: string; clock?: Clock },
): void {
  router.post('/v1/webhooks/:id/test', async (ctx) => {
    const endpoint = await findOwnedEndpoint(deps.db, principalOf(ctx.state), ctx.params.id as string);
    const { event } = parseInput(testEventBody, ctx.request.body ?? {});
    const name = event as EventName;
    if (name.startsWith('application.') !== (endpoint.merchant_id === null)) {
      throw new ApiError('unknown_event_name', {
        field: 'event',
        message: endpoint.merchant_id
          ? 'event: application events go to partner endpoints; name an order, payment or challenge event.'
          : 'event: a partner endpoint receives application events only.',
      });
    }
    const now = deps.clock?.now() ?? new Date();
    const sample = testEventSample(name, now, endpoint.merchant_id);
    const eventId = randomUUID();
    const deliveryId = derivedUuid(eventId, endpoint.id);
    await recordTestEvent(
      deps.db,
      {
        id: eventId,
        name,
        merchant_id: endpoint.merchant_id,
        partner_id: endpoint.partner_id,
        order_id: sample.orderId,
        external_order_id: sample.externalOrderId,
        confirmation_id: sample.confirmationId,
        data: sample.data === null ? null : JSON.stringify(sample.data),
        occurred_at: now,
      },
      { id: deliveryId, endpointId: endpoint.id },
    );
    // A signal lost here (a crash) is sent by the outbox relay's sweep of overdue deliveries.
    await signalEndpoints(deps.client, deps.taskQueue, [endpoint.id]);
    ctx.status = 202;
    ctx.body = { deliveryId, eventId, endpointId: endpoint.id, event: name, isTest: true };
  });
}
