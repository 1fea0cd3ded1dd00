import { randomUUID } from 'node:crypto';
import type { CardBrand } from '../../domain/cards';
import { cardFingerprints, openCard, sealCard, type VaultKey } from '../../domain/vault-cipher';
import type { Db } from '../knex';
import type { CardVaultRecord } from '../tables/card-vault';

export interface VaultedCard {
  token: string;
  brand: CardBrand;
  bin: string;
  last4: string;
  expiryMonth: number;
  expiryYear: number;
}

export function vaultedCardView(row: CardVaultRecord): VaultedCard {
  return {
    token: row.token,
    brand: row.brand,
    bin: row.bin,
    last4: row.last4,
    expiryMonth: row.expiry_month,
    expiryYear: row.expiry_year,
  };
}

/**
 * Vaults a card number for a merchant. Only brand, BIN and last4 are kept in clear. For the
 * merchant's own calls (a bearer token) the same number gives the same token, its expiry updated
 * to the latest one sent. With `ownToken` (the public tokenization key, which anyone on the
 * merchant's pages holds) every call gets a token of its own, so it can neither change another
 * token's expiry nor learn whether the card is known; a card's tokens share its fingerprint (the
 * networks' retry budgets count the card once).
 */
export async function vaultCard(
  db: Db,
  input: { merchantId: string; pan: string; brand: CardBrand; expiryMonth: number; expiryYear: number },
  keys: VaultKey[],
  { ownToken = false }: { ownToken?: boolean } = {},
): Promise<{ card: VaultedCard; created: boolean }> {
  const fingerprints = cardFingerprints(input.pan, input.merchantId, keys);
  return db.transaction(async (trx) => {
    // Serialise concurrent tokenizations of the same card by the same merchant.
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`card:${fingerprints[0]}`]);
    const existing = await trx('card_vault')
      .where('merchant_id', input.merchantId)
      .whereIn('fingerprint', fingerprints)
      .orderBy('created_at')
      .first();
    if (existing && !ownToken) {
      const [updated] = await trx('card_vault')
        .where({ token: existing.token })
        .update({ expiry_month: input.expiryMonth, expiry_year: input.expiryYear })
        .returning('*');
      if (!updated) throw new Error('card_vault update returned no row');
      return { card: vaultedCardView(updated), created: false };
    }
    // The card's fingerprint if vaulted before (perhaps under an older key), else the active key's.
    const fingerprint = existing?.fingerprint ?? fingerprints[0];
    if (!fingerprint) throw new Error('no vault key to fingerprint the card with');
    const token = randomUUID();
    const sealed = sealCard(input.pan, input.merchantId, token, keys);
    const [row] = await trx('card_vault')
      .insert({
        token,
        merchant_id: input.merchantId,
        fingerprint,
        key_id: sealed.keyId,
        iv: sealed.iv,
        ciphertext: sealed.ciphertext,
        auth_tag: sealed.authTag,
        brand: input.brand,
        bin: input.pan.slice(0, 6),
        last4: input.pan.slice(-4),
        expiry_month: input.expiryMonth,
        expiry_year: input.expiryYear,
      })
      .returning('*');
    if (!row) throw new Error('card_vault insert returned no row');
    return { card: vaultedCardView(row), created: true };
  });
}

/** Whether `pan` is the card vaulted under `token` for this merchant (by fingerprint; never decrypted). */
export async function isVaultedCard(
  db: Db,
  merchantId: string,
  token: string,
  pan: string,
  keys: VaultKey[],
): Promise<boolean> {
  const match = await db('card_vault')
    .where({ merchant_id: merchantId, token })
    .whereIn('fingerprint', cardFingerprints(pan, merchantId, keys))
    .first('token');
  return Boolean(match);
}

/** Whether two of this merchant's tokens are one card (the tokenization key vaults each call anew). */
export async function sameVaultedCard(db: Db, merchantId: string, token: string, other: string): Promise<boolean> {
  if (token === other) return true;
  const match = await db('card_vault as a')
    .join('card_vault as b', (on) => on.on('b.merchant_id', 'a.merchant_id').andOn('b.fingerprint', 'a.fingerprint'))
    .where({ 'a.merchant_id': merchantId, 'a.token': token, 'b.token': other })
    .first('a.token');
  return Boolean(match);
}

export async function findVaultedCard(db: Db, merchantId: string, token: string): Promise<VaultedCard | undefined> {
  const row = await db('card_vault').where({ token, merchant_id: merchantId }).first();
  return row ? vaultedCardView(row) : undefined;
}

/** A vault row's card and its number, opened with the vault keys (for the processor only). */
export function revealedCardOf(row: CardVaultRecord, keys: VaultKey[]): { card: VaultedCard; pan: string } {
  const sealed = { keyId: row.key_id, iv: row.iv, ciphertext: row.ciphertext, authTag: row.auth_tag };
  return { card: vaultedCardView(row), pan: openCard(sealed, row.merchant_id, row.token, keys) };
}

/** The card number behind a token, for the processor only; undefined for another merchant's token. */
export async function revealCard(
  db: Db,
  merchantId: string,
  token: string,
  keys: VaultKey[],
): Promise<string | undefined> {
  const row = await db('card_vault').where({ token, merchant_id: merchantId }).first();
  return row && revealedCardOf(row, keys).pan;
}
