import type { Knex } from 'knex';
import type { Instant } from './columns';

/** A row of `tokenization_keys`: a merchant's tokenization key (only its SHA-256 is kept). */
export interface TokenizationKeyRecord {
  id: string;
  merchant_id: string;
  key_hash: string;
  name: string;
  key_hint: string | null;
  created_at: Date;
  revoked_at: Date | null;
}

/** As written: what the database defaults may be left out; timestamps as Instant. */
export type TokenizationKeyInsert = Omit<
  TokenizationKeyRecord,
  'id' | 'name' | 'key_hint' | 'created_at' | 'revoked_at'
> & {
  id?: string;
  name?: string;
  key_hint?: string | null;
  created_at?: Instant;
  revoked_at?: Instant | null;
};

export type TokenizationKeysTable = Knex.CompositeTableType<
  TokenizationKeyRecord,
  TokenizationKeyInsert,
  Partial<TokenizationKeyInsert>
>;
