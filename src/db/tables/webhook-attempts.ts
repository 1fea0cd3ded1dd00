import type { Knex } from 'knex';
import type { Instant } from './columns';

/** A row of `webhook_attempts`: one attempt of a webhook delivery, as its delivery log shows it. */
export interface WebhookAttemptRecord {
  id: number;
  delivery_id: string;
  attempt: number;
  is_resent: boolean;
  started_at: Date;
  status_code: number | null;
  error: string | null;
  latency_ms: number;
  succeeded: boolean;
}

/** As written: what the database defaults may be left out; timestamps as Instant. */
export type WebhookAttemptInsert = Omit<WebhookAttemptRecord, 'id' | 'started_at' | 'status_code' | 'error'> & {
  id?: number;
  started_at: Instant;
  status_code?: number | null;
  error?: string | null;
};

export type WebhookAttemptsTable = Knex.CompositeTableType<
  WebhookAttemptRecord,
  WebhookAttemptInsert,
  Partial<WebhookAttemptInsert>
>;
