import type { Knex } from 'knex';
import type { Instant } from './columns';

/** A row of `idempotency_keys`: one claim or stored answer per (merchant, key), docs/idempotency.md. */
export interface IdempotencyKeyRecord {
  merchant_id: string;
  key: string;
  operation: string;
  request_hash: string;
  state: 'in_flight' | 'completed';
  response_status: number | null;
  response_body: string | null;
  created_at: Date;
  expires_at: Date;
  /** The API process (api_processes.id) holding an in-flight claim. */
  owner_id: string | null;
  claim_id: string | null;
}

export type IdempotencyKeyInsert = Omit<
  IdempotencyKeyRecord,
  'created_at' | 'expires_at' | 'response_status' | 'response_body' | 'owner_id' | 'claim_id'
> & {
  created_at: Instant;
  expires_at: Instant;
  response_status?: number | null;
  response_body?: string | null;
  owner_id?: string | null;
  claim_id?: string | null;
};

export type IdempotencyKeysTable = Knex.CompositeTableType<
  IdempotencyKeyRecord,
  IdempotencyKeyInsert,
  Partial<IdempotencyKeyInsert>
>;
