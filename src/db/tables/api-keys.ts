import type { Knex } from 'knex';
import type { Scope } from '../../domain/scopes';
import type { Instant } from './columns';

/** A row of `api_keys`: an API key of a merchant or a partner (its id is also its OAuth2 client_id); only the secret's SHA-256 is kept. */
export interface ApiKeyRecord {
  id: string;
  owner_type: 'merchant' | 'partner';
  partner_id: string;
  merchant_id: string | null;
  name: string;
  description: string | null;
  secret_hash: string;
  scopes: Scope[];
  secret_hint: string | null;
  previous_secret_hash: string | null;
  previous_secret_expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
  revoked_at: Date | null;
}

/** As written: what the database defaults may be left out; timestamps as Instant. */
export type ApiKeyInsert = Omit<
  ApiKeyRecord,
  | 'id'
  | 'merchant_id'
  | 'description'
  | 'scopes'
  | 'secret_hint'
  | 'previous_secret_hash'
  | 'previous_secret_expires_at'
  | 'created_at'
  | 'updated_at'
  | 'revoked_at'
> & {
  id?: string;
  merchant_id?: string | null;
  description?: string | null;
  scopes?: string[];
  secret_hint?: string | null;
  previous_secret_hash?: string | null;
  previous_secret_expires_at?: Instant | null;
  created_at?: Instant;
  updated_at?: Instant;
  revoked_at?: Instant | null;
};

export type ApiKeysTable = Knex.CompositeTableType<ApiKeyRecord, ApiKeyInsert, Partial<ApiKeyInsert>>;
