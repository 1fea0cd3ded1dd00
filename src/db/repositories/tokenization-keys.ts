import { hashSecret } from '../../domain/secrets';
import type { Db } from '../knex';

/** The merchant a tokenization key belongs to, or undefined for an unknown or revoked key. */
export async function merchantForTokenizationKey(db: Db, key: string): Promise<string | undefined> {
  const row = await db('tokenization_keys')
    .where({ key_hash: hashSecret(key) })
    .whereNull('revoked_at')
    .first('merchant_id');
  return row?.merchant_id;
}
