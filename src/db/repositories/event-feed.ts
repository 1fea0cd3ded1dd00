import type { Db } from '../knex';
import type { EventRecord } from '../tables';

/**
 * The events an owner may read (GET /v1/events, resend): a merchant's, or a partner's own
 * (application events, whose Mid appears on conversion). Test events (POST /v1/webhooks/{id}/test)
 * only when asked for: made-up orders must not reach a catch-up job by default, but listen
 * (scripts/listen.ts) shows them as a registered endpoint receives them.
 */
export interface EventOwner {
  partnerId: string;
  merchantId: string | null;
}

function ownedEvents(db: Db, owner: EventOwner, withTestEvents: boolean) {
  const q = db('events').where({ partner_id: owner.partnerId });
  if (!withTestEvents) q.andWhere({ is_test_event: false });
  return owner.merchantId
    ? q.andWhere({ merchant_id: owner.merchantId }).andWhereNot('name', 'like', 'application.%')
    : q.andWhere('name', 'like', 'application.%');
}

/** A page of the owner's events, oldest first. */
export interface EventPage {
  /** Events that occurred at or after this instant. */
  occurredSince?: Date;
  /** Events after each of these positions (their `sequence`, as the cursors carry it). */
  after: string[];
  limit: number;
  withTestEvents: boolean;
}

/** The page's events, and whether more follow it. */
export async function listOwnedEvents(
  db: Db,
  owner: EventOwner,
  page: EventPage,
): Promise<{ rows: EventRecord[]; hasMore: boolean }> {
  const fetched: EventRecord[] = await ownedEventsPageQuery(db, owner, page);
  return { rows: fetched.slice(0, page.limit), hasMore: fetched.length > page.limit };
}

/**
 * The page's query, one row more than the page (whether more follow). A merchant's walks
 * (merchant_id, sequence); a partner's, its application events' own index (events_partner_application).
 */
export function ownedEventsPageQuery(db: Db, owner: EventOwner, page: EventPage) {
  const q = ownedEvents(db, owner, page.withTestEvents)
    .orderBy('sequence', 'asc')
    .limit(page.limit + 1);
  if (page.occurredSince !== undefined) q.andWhere('occurred_at', '>=', page.occurredSince);
  for (const position of page.after) q.andWhere('sequence', '>', position);
  return q;
}

/** The owner's event with this id (never a test event), or undefined. */
export async function findOwnedEvent(db: Db, owner: EventOwner, eventId: string): Promise<EventRecord | undefined> {
  return ownedEvents(db, owner, false).andWhere({ id: eventId }).first();
}
