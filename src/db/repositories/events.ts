import type { OrderState } from '../../domain/orders/contracts';
import type { OrderEvent } from '../../domain/orders/events';
import type { Db } from '../knex';
import type { EventRecord } from '../tables';

/** An `events` row as read (its columns: src/db/tables/events.ts). */
export type EventRow = EventRecord;

/**
 * The outbox: every event is written in the same transaction as the state change that caused it,
 * so none is lost and none is announced for a change that did not happen. Delivery reads it.
 * Inserting an event twice (an activity retry) is harmless: its id is fixed by the workflow.
 */
export async function insertOrderEvents(trx: Db, state: EventOwner, events: OrderEvent[]): Promise<void> {
  const insert = orderEventsInsert(trx, state, events);
  if (insert) await insert;
}

type EventOwner = Pick<
  OrderState,
  'orderId' | 'merchantId' | 'partnerId' | 'externalOrderId' | 'confirmationId' | 'isTestMode'
>;

/** The insert of insertOrderEvents, not yet sent (undefined when there are none), to go with other writes. */
export function orderEventsInsert(db: Db, state: EventOwner, events: OrderEvent[]) {
  if (events.length === 0) return undefined;
  return db('events')
    .insert(
      events.map((e) => ({
        id: e.id,
        name: e.name,
        merchant_id: state.merchantId,
        partner_id: state.partnerId,
        order_id: state.orderId,
        external_order_id: state.externalOrderId,
        confirmation_id: state.confirmationId,
        data: e.data === null ? null : JSON.stringify(e.data),
        is_test_mode: state.isTestMode,
        occurred_at: e.occurredAt,
      })),
    )
    .onConflict('id')
    .ignore();
}

export async function listOrderEvents(db: Db, orderId: string): Promise<EventRow[]> {
  return db('events').where({ order_id: orderId }).orderBy('sequence', 'asc');
}
