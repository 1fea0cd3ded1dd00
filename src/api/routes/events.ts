import type Router from '@koa/router';
import type { Client } from '@temporalio/client';
import { z } from 'zod';
import type { Db } from '../../db/knex';
import { findOwnedEvent, listOwnedEvents } from '../../db/repositories/event-feed';
import { resendDeliveries } from '../../db/repositories/webhook-due-deliveries';
import { subscribedEndpoints } from '../../db/repositories/webhook-endpoints';
import { ApiError } from '../../domain/errors';
import { derivedUuid } from '../../domain/ids';
import { signalEndpoints } from '../../outbox-relay';
import { principalOf } from '../middleware/authenticate';
import { apiRouter } from '../router';
import { parseInput } from '../validation';
import { addWebhookTestEventRoute } from './webhook-test-event';
import { endpointOwner } from './webhooks';

/** Cursors of GET /v1/events are opaque: `evc_` plus Base64url of the last event's position. */
const CURSOR_PREFIX = 'evc_';

export function eventCursor(sequence: number | string): string {
  return `${CURSOR_PREFIX}${Buffer.from(`v1:${sequence}`, 'utf8').toString('base64url')}`;
}

/** The position a cursor names, or undefined when it is not one of ours. */
export function cursorPosition(cursor: string): string | undefined {
  if (!cursor.startsWith(CURSOR_PREFIX)) return undefined;
  const m = /^v1:(\d{1,18})$/.exec(Buffer.from(cursor.slice(CURSOR_PREFIX.length), 'base64url').toString('utf8'));
  return m?.[1];
}

const cursor = z
  .string()
  .max(100)
  .refine((v) => cursorPosition(v) !== undefined, 'must be a nextCursor from this API');
const isoTime = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 timestamp or a nextCursor' });

/**
 * Query of GET /v1/events: `since` (an ISO 8601 instant, as before, or a cursor), `starting_after`
 * (a cursor: events after the one it names), `limit` (1 to 500, 100 by default),
 * `include_test_events` (`true`: test events too, marked `IsTestEvent`; what listen follows).
 */
export const listQuery = z.object({
  since: z.union([isoTime, cursor]).optional(),
  starting_after: cursor.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  include_test_events: z
    .enum(['true', 'false'])
    .default('false')
    .describe('`true` lists test events (POST /v1/webhooks/{id}/test) too, with `IsTestEvent: true`.'),
});

/**
 * GET /v1/events: the owner's events, oldest first, to catch up after an outage or to follow them
 * (scripts/listen.ts). Cursor paging: pass `nextCursor` back as `starting_after` (or `since`);
 * every event then comes exactly once. `next` (an instant, events at it repeat) stays for callers
 * of the first version.
 * POST /v1/events/{eventId}/resend: delivers an event again to the owner's subscribed endpoints,
 * every attempt with IsResent true and the delivery's unchanged IdempotencyKey.
 * POST /v1/webhooks/{id}/test (webhook-test-event.ts) also needs the Temporal client, so it lives here.
 */
export function eventRoutes(deps: { db: Db; client: Client; taskQueue: string }): Router {
  const router = apiRouter();

  router.get('/v1/events', async (ctx) => {
    const { since, starting_after: startingAfter, limit, include_test_events } = parseInput(listQuery, ctx.query);
    const sinceCursor = since === undefined ? undefined : cursorPosition(since);
    const after = [sinceCursor, startingAfter && cursorPosition(startingAfter)].filter(
      (position): position is string => position !== undefined,
    );
    const { rows, hasMore } = await listOwnedEvents(deps.db, endpointOwner(principalOf(ctx.state)), {
      // A Date, as order search passes its bounds: pg writes year 0000 as 1 BC, which Postgres takes.
      occurredSince: since && sinceCursor === undefined ? new Date(since) : undefined,
      after,
      limit,
      withTestEvents: include_test_events === 'true',
    });
    const last = rows[rows.length - 1];
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
        IsTestEvent: e.is_test_event,
      })),
      // Pass the last TimeStamp back as `since` for the next page (events at that instant repeat: de-duplicate by EventId).
      next: rows.length === limit ? last?.occurred_at.toISOString() : null,
      hasMore,
      // Where the next page starts (also on the last page, to follow new events); the caller's own cursor when empty.
      nextCursor: last ? eventCursor(last.sequence) : (startingAfter ?? (sinceCursor ? since : null) ?? null),
    };
  });

  router.post('/v1/events/:eventId/resend', async (ctx) => {
    const owner = endpointOwner(principalOf(ctx.state));
    const eventId = ctx.params.eventId as string;
    const event = z.uuid().safeParse(eventId).success ? await findOwnedEvent(deps.db, owner, eventId) : undefined;
    if (!event) throw new ApiError('event_not_found');
    const endpoints = await subscribedEndpoints(deps.db, owner, event.name);
    const deliveries = endpoints.map((endpoint) => ({
      id: derivedUuid(event.id, endpoint.id),
      event_id: event.id,
      endpoint_id: endpoint.id,
    }));
    // Durable first (the rows, due now), then each endpoint's workflow is told; a lost signal is
    // sent again by the outbox relay's sweep of overdue deliveries.
    await resendDeliveries(deps.db, deliveries);
    await signalEndpoints(
      deps.client,
      deps.taskQueue,
      deliveries.map((d) => d.endpoint_id),
    );
    ctx.status = 202;
    ctx.body = {
      eventId: event.id,
      deliveries: deliveries.map((d) => ({ deliveryId: d.id, endpointId: d.endpoint_id })),
    };
  });
  addWebhookTestEventRoute(router, deps);
  return router;
}
