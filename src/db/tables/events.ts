import type { Knex } from 'knex';
import type { Instant } from './columns';

/**
 * A row of `events`, the outbox (src/db/repositories/events.ts): every event, written with the
 * change that caused it; the relay marks it dispatched once fanned out to the endpoints.
 */
export interface EventRecord {
  id: string;
  /** The order of events (bigserial, read as a number): cursors of GET /v1/events name it. */
  sequence: number;
  name: string;
  /** Null for a partner's application events before conversion. */
  merchant_id: string | null;
  partner_id: string;
  order_id: string | null;
  external_order_id: string | null;
  confirmation_id: string | null;
  /** The EventData (jsonb), parsed. */
  data: unknown;
  is_test_mode: boolean;
  /** Sent by POST /v1/webhooks/{id}/test: a sample, never fanned out. */
  is_test_event: boolean;
  occurred_at: Date;
  created_at: Date;
  dispatched_at: Date | null;
}

export type EventInsert = Pick<EventRecord, 'id' | 'name' | 'partner_id' | 'is_test_mode'> &
  Partial<Pick<EventRecord, 'merchant_id' | 'order_id' | 'external_order_id' | 'confirmation_id' | 'is_test_event'>> & {
    /** Written as JSON text. */
    data?: string | null;
    occurred_at: Instant;
    created_at?: Instant;
    dispatched_at?: Instant | null;
  };

export type EventsTable = Knex.CompositeTableType<EventRecord, EventInsert, Partial<EventInsert>>;
