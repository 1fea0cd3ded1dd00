import type { Knex } from 'knex';
import type { CardBrand } from '../../domain/cards';
import { allColumns, type Instant } from './columns';

/**
 * A row of `card_vault`: one token of a card number, sealed (AES-256-GCM). A card's tokens of one
 * merchant share its fingerprint (src/db/repositories/card-vault.ts).
 */
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

/** Every column of a CardVaultRecord, for statements that name their result's (src/db/prepared.ts). */
export const CARD_VAULT_COLUMNS = allColumns<CardVaultRecord>()([
  'token',
  'merchant_id',
  'fingerprint',
  'key_id',
  'iv',
  'ciphertext',
  'auth_tag',
  'brand',
  'bin',
  'last4',
  'expiry_month',
  'expiry_year',
  'created_at',
]);

export type CardVaultInsert = Omit<CardVaultRecord, 'created_at'> & { created_at?: Instant };

export type CardVaultTable = Knex.CompositeTableType<CardVaultRecord, CardVaultInsert, Partial<CardVaultInsert>>;
