import type { Knex } from 'knex';
import type { Instant } from './columns';

/** A row of `webhook_endpoints`: a webhook endpoint of a merchant or a partner; its signing secret (and the one rotating in) encrypted at rest, since it is read back to sign. */
export interface WebhookEndpointRecord {
  id: string;
  partner_id: string;
  merchant_id: string | null;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  secret_key_id: string;
  secret_iv: Buffer;
  secret_ciphertext: Buffer;
  secret_auth_tag: Buffer;
  pending_secret_key_id: string | null;
  pending_secret_iv: Buffer | null;
  pending_secret_ciphertext: Buffer | null;
  pending_secret_auth_tag: Buffer | null;
  pending_secret_activates_at: Date | null;
  failing_since: Date | null;
  alerted_at: Date | null;
  disabled_at: Date | null;
  disabled_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

/** As written: what the database defaults may be left out; timestamps as Instant. */
export type WebhookEndpointInsert = Omit<
  WebhookEndpointRecord,
  | 'id'
  | 'merchant_id'
  | 'description'
  | 'enabled'
  | 'pending_secret_key_id'
  | 'pending_secret_iv'
  | 'pending_secret_ciphertext'
  | 'pending_secret_auth_tag'
  | 'pending_secret_activates_at'
  | 'failing_since'
  | 'alerted_at'
  | 'disabled_at'
  | 'disabled_reason'
  | 'created_at'
  | 'updated_at'
> & {
  id?: string;
  merchant_id?: string | null;
  description?: string | null;
  enabled?: boolean;
  pending_secret_key_id?: string | null;
  pending_secret_iv?: Buffer | null;
  pending_secret_ciphertext?: Buffer | null;
  pending_secret_auth_tag?: Buffer | null;
  pending_secret_activates_at?: Instant | null;
  failing_since?: Instant | null;
  alerted_at?: Instant | null;
  disabled_at?: Instant | null;
  disabled_reason?: string | null;
  created_at?: Instant;
  updated_at?: Instant;
};

export type WebhookEndpointsTable = Knex.CompositeTableType<
  WebhookEndpointRecord,
  WebhookEndpointInsert,
  Partial<WebhookEndpointInsert>
>;
