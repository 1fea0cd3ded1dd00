import { PARTNER_EVENT_PREFIX } from '../../domain/webhooks/event-names';
import type { Db } from '../knex';
import { prepared } from '../prepared';
import { subscribedSql } from './webhook-endpoints';

/** What one fan-out did: how many events it took, and the endpoints that have deliveries of them. */
export interface FanOut {
  events: number;
  endpointIds: string[];
}

/**
 * A delivery's id, derived from its event's and its endpoint's (`derivedUuid(eventId, endpointId)`,
 * src/domain/ids.ts, computed by Postgres: the first 32 hex digits of the SHA-256 of the two ids
 * joined by a newline, with the version nibble 8 and the variant bits 10). The fan-out test pins
 * the two to the same value.
 */
const DELIVERY_ID = `(select (substr(h, 1, 12) || '8' || substr(h, 14, 3)
     || substr('89ab89ab89ab89ab', strpos('0123456789abcdef', substr(h, 17, 1)), 1) || substr(h, 18, 15))::uuid
   from (select encode(sha256(convert_to(e.id::text || E'\\n' || w.id::text, 'UTF8')), 'hex') as h) digest)`;

/**
 * The outbox relay's fan-out as ONE statement (its own transaction, one round trip): up to `limit`
 * events not yet dispatched, oldest first, locked (rows another relay holds are skipped, so relays
 * share the work) and marked dispatched; one delivery, due now, for each enabled endpoint
 * subscribed to each (an application event goes to its partner's own endpoints, any other to its
 * merchant's); an existing delivery of the same event to the same endpoint is kept as it is.
 * Answers every endpoint that has a delivery of the batch, so a repeated fan-out signals again.
 */
export async function fanOutUndispatchedEvents(db: Db, limit: number): Promise<FanOut> {
  const { rows } = await prepared(
    db.raw<{ rows: { events: number; endpoint_ids: string[] }[] }>(
      `with claimed as (
         select id, name, partner_id, merchant_id from events
         where dispatched_at is null order by sequence limit ? for update skip locked
       ),
       dispatched as (update events set dispatched_at = now() where id in (select id from claimed)),
       subscribed as (
         select e.id as event_id, w.id as endpoint_id, ${DELIVERY_ID} as id
         from claimed e join webhook_endpoints w on w.partner_id = e.partner_id and ${subscribedSql('w', 'e.name')}
           and w.merchant_id is not distinct from (case when starts_with(e.name, ?) then null else e.merchant_id end)
       ),
       inserted as (
         insert into webhook_deliveries (id, event_id, endpoint_id, status, next_attempt_at)
         select id, event_id, endpoint_id, 'pending', now() from subscribed
         on conflict (event_id, endpoint_id) do nothing
       )
       select (select count(*) from claimed)::int as events,
              array(select distinct endpoint_id::text from subscribed) as endpoint_ids`,
      [limit, PARTNER_EVENT_PREFIX],
    ),
  );
  const row = rows[0];
  return { events: row?.events ?? 0, endpointIds: row?.endpoint_ids ?? [] };
}
