import type { Knex } from 'knex';
import type { Flow, OrderStatusName } from '../../domain/orders/status';
import type { Instant } from './columns';

/** A row of `orders`, the read model of the order workflow, as read (bigints arrive as numbers: src/db/knex.ts). */
export interface OrderRecord {
  id: string;
  version: number;
  merchant_id: string;
  partner_id: string;
  external_order_id: string;
  order_session_key: string;
  workflow_id: string;
  is_test_mode: boolean;
  flow: Flow;
  transaction_type: string;
  is_mit: boolean;
  is_recurring: boolean;
  status: number;
  status_name: OrderStatusName;
  outcome: string | null;
  amount: number;
  currency: string;
  authorized_amount: number;
  captured_amount: number;
  refunded_amount: number;
  card_token: string;
  card_brand: string;
  card_bin: string;
  card_last4: string;
  sense_key: string | null;
  response_code: string | null;
  /** The decline code the order came with, kept from its first row (response_code follows the retries). */
  decline_code: string | null;
  attempt_count: number | null;
  service_attempts: number;
  /** Problem over a charge the processor never answered: it may stand. */
  charge_outcome_unknown: boolean;
  declined_at: Date;
  window_ends_at: Date | null;
  capture_before: Date | null;
  confirmation_id: string | null;
  authorization_id: string | null;
  score: number | null;
  reasons: string[];
  device_signals_used: boolean;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
  cancelled_at: Date | null;
  expired_at: Date | null;
}

type Timestamps = 'declined_at' | 'window_ends_at' | 'capture_before' | 'created_at' | 'updated_at';
type EndTimestamps = 'completed_at' | 'cancelled_at' | 'expired_at';

/** An `orders` row as written: timestamps may be ISO strings; columns with defaults may be left out. */
export type OrderInsert = Omit<OrderRecord, Timestamps | EndTimestamps | 'decline_code'> & {
  decline_code?: string | null;
  declined_at: Instant;
  window_ends_at: Instant | null;
  capture_before: Instant | null;
  created_at: Instant;
  updated_at: Instant;
} & { [K in EndTimestamps]: Instant | null };

export type OrdersTable = Knex.CompositeTableType<OrderRecord, OrderInsert, Partial<OrderInsert>>;
