import { z } from 'zod';
import { EVENT_NAMES } from '../../../domain/webhooks/event-names';
import { webhookEndpoint } from '../schemas';

/**
 * Events, their deliveries and webhook tools as the routes answer them (src/api/routes/events.ts,
 * webhooks.ts, webhook-test-event.ts; deliveryLog in src/db/repositories/webhook-deliveries.ts).
 */
const uuid = z.uuid();
const instant = z.iso.datetime({ offset: true });

export const eventRecord = z
  .looseObject({
    EventId: uuid,
    Event: z.enum(EVENT_NAMES),
    TimeStamp: instant,
    EventData: z.unknown().describe("The event's EventData (the `webhooks` section types each)."),
    Mid: uuid.nullable(),
    Pid: uuid,
    ExternalOrderId: z.string().nullable(),
    OrderId: uuid.nullable(),
    ConfirmationId: z.string().nullable(),
    IsTestMode: z.boolean(),
    IsTestEvent: z
      .boolean()
      .describe('A test event (POST /v1/webhooks/{id}/test); listed only with `include_test_events=true`.'),
  })
  .meta({ id: 'EventRecord' });

export const eventPage = z
  .looseObject({
    data: z.array(eventRecord),
    hasMore: z.boolean(),
    nextCursor: z.string().nullable().describe('Pass back as `starting_after`: every event then comes exactly once.'),
    next: instant.nullable().describe('The older paging (an instant; events at it repeat). Prefer `nextCursor`.'),
  })
  .meta({ id: 'EventPage' });

export const eventResent = z
  .looseObject({
    eventId: uuid,
    deliveries: z.array(z.object({ deliveryId: uuid, endpointId: uuid })),
  })
  .meta({ id: 'EventResent' });

const attempt = z.looseObject({
  attempt: z.number().int(),
  isResent: z.boolean(),
  startedAt: instant,
  statusCode: z.number().int().nullable(),
  latencyMs: z.number().int().nullable(),
  error: z.string().nullable(),
  succeeded: z.boolean(),
});

/** One delivery of an event to an endpoint, with every attempt: the item of both delivery logs. */
const delivery = z.looseObject({
  deliveryId: uuid,
  eventId: uuid,
  event: z.string(),
  status: z.enum(['pending', 'delivered', 'failed', 'stopped']),
  nextAttemptAt: instant.nullable(),
  deliveredAt: instant.nullable(),
  attempts: z.array(attempt),
});

export const deliveryLog = z.looseObject({ endpointId: uuid, data: z.array(delivery) }).meta({ id: 'DeliveryLog' });

export const rotatedEndpoint = webhookEndpoint
  .extend({
    secret: z.string().describe('Base64 of 32 bytes; shown only on creation and rotation.'),
    activatesAt: instant.describe('When the new secret starts signing (the old one signs until then).'),
  })
  .meta({ id: 'RotatedWebhookEndpoint' });

export const endpointList = z.object({ data: z.array(webhookEndpoint) }).meta({ id: 'WebhookEndpointList' });
export const endpointDeleted = z.object({ id: uuid, deleted: z.literal(true) }).meta({ id: 'WebhookEndpointDeleted' });

export const testEventQueued = z
  .looseObject({ deliveryId: uuid, eventId: uuid, endpointId: uuid, event: z.string(), isTest: z.literal(true) })
  .meta({ id: 'TestEventQueued' });

export const openApiDocument = z
  .looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.looseObject({}) })
  .meta({ id: 'OpenApiDocument', description: 'This document (OpenAPI 3.1).' });

export const orderDeliveryLog = z
  .looseObject({
    orderId: uuid,
    data: z.array(delivery.extend({ endpointId: uuid })),
  })
  .meta({ id: 'OrderDeliveryLog' });

export const dashboardLink = z
  .looseObject({
    url: z.url().describe("The dashboard, with the signed link token in the URL's fragment (`#link=dl1.…`)."),
    expiresAt: instant.describe('When the link stops working (whole seconds).'),
  })
  .meta({ id: 'DashboardLink' });
