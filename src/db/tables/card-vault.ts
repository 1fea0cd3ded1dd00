import type { Knex } from 'knex';
import type { CardBrand } from '../../domain/cards';
import type { Instant } from './columns';

/** A row of `card_vault`: one card number per (merchant, fingerprint), sealed (AES-256-GCM). */
export interface CardVaultRecord {
  token: string;
  merchant_id: string;
  /** HMAC of the number under the active vault key (src/domain/vault-cipher.ts), never the number. */
  fingerprint: string;
  key_id: string;
  iv: Buffer;
  ciphertext: Buffer;
  auth_tag: Buffer;
  brand: CardBrand;
  bin: string;
  last4: string;
  expiry_month: number;
  expiry_year: number;
  created_at: Date;
}

export type CardVaultInsert = Omit<CardVaultRecord, 'created_at'> & { created_at?: Instant };

export type CardVaultTable = Knex.CompositeTableType<CardVaultRecord, CardVaultInsert, Partial<CardVaultInsert>>;
