import type { Knex } from 'knex';
import type { Instant } from './columns';

/** A row of `access_tokens`: a bearer token, stored only as its SHA-256 (src/db/repositories/access-tokens.ts). */
export interface AccessTokenRecord {
  id: string;
  token_hash: string;
  api_key_id: string;
  expires_at: Date;
  created_at: Date;
}

export type AccessTokenInsert = Omit<AccessTokenRecord, 'id' | 'expires_at' | 'created_at'> & {
  id?: string;
  expires_at: Instant;
  created_at?: Instant;
};

export type AccessTokensTable = Knex.CompositeTableType<
  AccessTokenRecord,
  AccessTokenInsert,
  Partial<AccessTokenInsert>
>;
