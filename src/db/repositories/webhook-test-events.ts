import type { Db } from '../knex';
import type { EventInsert } from '../tables/events';
import { insertDueDeliveries } from './webhook-due-deliveries';

/** A test event (POST /v1/webhooks/{id}/test) as the route makes it: a sample, at one instant. */
export type TestEvent = Omit<EventInsert, 'is_test_mode' | 'is_test_event' | 'dispatched_at' | 'occurred_at'> & {
  occurred_at: Date;
};

/**
 * Stores a test event, marked as a test and already dispatched (the outbox relay never fans it
 * out: it goes to this one endpoint only), with its delivery to the endpoint due now; in one
 * transaction, so there is never one without the other.
 */
export async function recordTestEvent(
  db: Db,
  event: TestEvent,
  delivery: { id: string; endpointId: string },
): Promise<void> {
  await db.transaction(async (trx) => {
    await trx('events').insert({
      ...event,
      is_test_mode: true,
      is_test_event: true,
      dispatched_at: event.occurred_at,
    });
    await insertDueDeliveries(trx, [{ id: delivery.id, event_id: event.id, endpoint_id: delivery.endpointId }]);
  });
}
