import { generateSecret, hashSecret } from '../../domain/secrets';
import type { Db } from '../knex';
import type { TokenizationKeyRecord } from '../tables/tokenization-keys';

/** A row of `tokenization_keys` (its columns: src/db/tables/tokenization-keys.ts). */
export type TokenizationKeyRow = TokenizationKeyRecord;

/** The tokenization key as the API shows it: never the key itself, only its last four characters. */
export function tokenizationKeyView(row: TokenizationKeyRow) {
  return {
    id: row.id,
    mid: row.merchant_id,
    name: row.name,
    status: row.revoked_at ? 'revoked' : 'active',
    keyHint: row.key_hint ? `...${row.key_hint}` : null,
    createdAt: row.created_at.toISOString(),
    revokedAt: row.revoked_at?.toISOString() ?? null,
  };
}

/** The merchant a tokenization key belongs to, or undefined for an unknown or revoked key. */
export async function merchantForTokenizationKey(db: Db, key: string): Promise<string | undefined> {
  const row = await db('tokenization_keys')
    .where({ key_hash: hashSecret(key) })
    .whereNull('revoked_at')
    .first('merchant_id');
  return row?.merchant_id;
}

/** Issues a key (`tk_live_…` in production, `tk_sandbox_…` else); the key is returned this once. */
export async function createTokenizationKey(
  db: Db,
  input: { merchantId: string; name: string; environment: string },
): Promise<{ row: TokenizationKeyRow; key: string }> {
  const key = generateSecret(input.environment === 'production' ? 'tk_live' : 'tk_sandbox');
  const [row] = await db('tokenization_keys')
    .insert({ merchant_id: input.merchantId, name: input.name, key_hash: hashSecret(key), key_hint: key.slice(-4) })
    .returning('*');
  return { row: row as TokenizationKeyRow, key };
}

export async function listTokenizationKeys(db: Db, merchantId: string): Promise<TokenizationKeyRow[]> {
  return db('tokenization_keys').where({ merchant_id: merchantId }).orderBy('created_at', 'asc');
}

/** The key only when it belongs to that merchant: another merchant's key is as unknown. */
export async function findMerchantTokenizationKey(
  db: Db,
  merchantId: string,
  id: string,
): Promise<TokenizationKeyRow | undefined> {
  return db('tokenization_keys').where({ id, merchant_id: merchantId }).first();
}

/** Revokes at once (tokenize refuses the key from now on); revoking again keeps the first time. */
export async function revokeTokenizationKey(db: Db, id: string, now: Date): Promise<TokenizationKeyRow> {
  const [row] = await db('tokenization_keys')
    .where({ id })
    .update({ revoked_at: db.raw('coalesce(revoked_at, ?)', [now]) as never })
    .returning('*');
  return row as TokenizationKeyRow;
}
