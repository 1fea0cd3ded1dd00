import type { Knex } from 'knex';
import type { Instant } from './columns';

/** A row of `webhook_deliveries`: one event's delivery to one endpoint: its place on the retry schedule (docs/webhooks.md); its id is the envelope's IdempotencyKey. */
export interface WebhookDeliveryRecord {
  id: string;
  event_id: string;
  endpoint_id: string;
  status: 'pending' | 'delivered' | 'failed' | 'stopped';
  attempts: number;
  next_attempt_at: Date | null;
  delivered_at: Date | null;
  resend: boolean;
  round_started_at: Date | null;
  round_attempts: number;
  lease_until: Date | null;
  created_at: Date;
}

/** As written: what the database defaults may be left out; timestamps as Instant. */
export type WebhookDeliveryInsert = Omit<
  WebhookDeliveryRecord,
  | 'attempts'
  | 'next_attempt_at'
  | 'delivered_at'
  | 'resend'
  | 'round_started_at'
  | 'round_attempts'
  | 'lease_until'
  | 'created_at'
> & {
  attempts?: number;
  next_attempt_at?: Instant | null;
  delivered_at?: Instant | null;
  resend?: boolean;
  round_started_at?: Instant | null;
  round_attempts?: number;
  lease_until?: Instant | null;
  created_at?: Instant;
};

export type WebhookDeliveriesTable = Knex.CompositeTableType<
  WebhookDeliveryRecord,
  WebhookDeliveryInsert,
  Partial<WebhookDeliveryInsert>
>;
