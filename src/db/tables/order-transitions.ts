import type { Knex } from 'knex';
import type { Instant } from './columns';

/** A row of `order_transitions`: one per status change of an order, keyed by (order, version). */
export interface OrderTransitionRecord {
  id: number;
  order_id: string;
  version: number;
  from_status: string | null;
  to_status: string;
  reason: string;
  at: Date;
}

export type OrderTransitionInsert = Omit<OrderTransitionRecord, 'id' | 'at'> & { at: Instant };

export type OrderTransitionsTable = Knex.CompositeTableType<
  OrderTransitionRecord,
  OrderTransitionInsert,
  Partial<OrderTransitionInsert>
>;
