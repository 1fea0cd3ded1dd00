import type { OrderState } from '../../domain/orders/contracts';
import type { OrderEvent } from '../../domain/orders/events';
import type { Db } from '../knex';

export interface EventRow {
  id: string;
  sequence: number;
  name: string;
  merchant_id: string;
  partner_id: string;
  order_id: string | null;
  external_order_id: string | null;
  confirmation_id: string | null;
  data: unknown;
  is_test_mode: boolean;
  occurred_at: Date;
}

/**
 * The outbox: every event is written in the same transaction as the state change that caused it,
 * so none is lost and none is announced for a change that did not happen. Delivery reads it.
 * Inserting an event twice (an activity retry) is harmless: its id is fixed by the workflow.
 */
export async function insertOrderEvents(
  trx: Db,
  state: Pick<OrderState, 'orderId' | 'merchantId' | 'partnerId' | 'externalOrderId' | 'confirmationId' | 'isTestMode'>,
  events: OrderEvent[],
): Promise<void> {
  if (events.length === 0) return;
  await trx('events')
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
  return db<EventRow>('events').where({ order_id: orderId }).orderBy('sequence', 'asc');
}
