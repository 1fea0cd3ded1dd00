import type { Principal } from '../../domain/scopes';
import { generateSecret, hashSecret } from '../../domain/secrets';
import type { Db } from '../knex';
import type { ApiKeyRow } from './api-keys';

/**
 * Opaque bearer tokens: 32 random bytes, stored only as SHA-256. Each lookup joins the API key,
 * so revoking a key invalidates its tokens at once.
 */
export async function issueAccessToken(
  db: Db,
  apiKeyId: string,
  now: Date,
  ttlSeconds: number,
): Promise<{ id: string; token: string; expiresAt: Date }> {
  const token = generateSecret('at');
  const expiresAt = new Date(now.getTime() + ttlSeconds * 1000);
  const [row] = await db('access_tokens')
    .insert({ token_hash: hashSecret(token), api_key_id: apiKeyId, expires_at: expiresAt, created_at: now })
    .returning('id');
  if (!row) throw new Error('access_tokens insert returned no row');
  // Housekeeping: tokens expired for a day are of no further use, not even for a 401003.
  await db('access_tokens')
    .where({ api_key_id: apiKeyId })
    .andWhere('expires_at', '<', new Date(now.getTime() - 86_400_000))
    .delete();
  return { id: row.id, token, expiresAt };
}

export type TokenResolution = { principal: Principal } | { problem: 'unknown' | 'expired' };

/** A live token as stored: whose key it is and until when it is valid. */
export interface AccessTokenGrant {
  principal: Principal;
  expiresAt: Date;
}

/** The token's grant, by its hash; undefined when unknown or its key is revoked. */
export async function findAccessTokenGrant(db: Db, tokenHash: string): Promise<AccessTokenGrant | undefined> {
  const row = (await db('access_tokens as t')
    .join('api_keys as k', 'k.id', 't.api_key_id')
    .where('t.token_hash', tokenHash)
    .whereNull('k.revoked_at')
    .first('t.expires_at', 'k.id', 'k.owner_type', 'k.partner_id', 'k.merchant_id', 'k.scopes')) as
    | (Pick<ApiKeyRow, 'id' | 'owner_type' | 'partner_id' | 'merchant_id' | 'scopes'> & { expires_at: Date })
    | undefined;
  if (!row) return undefined;
  return {
    expiresAt: row.expires_at,
    principal: {
      apiKeyId: row.id,
      ownerType: row.owner_type,
      partnerId: row.partner_id,
      merchantId: row.merchant_id,
      scopes: row.scopes,
    },
  };
}

/** What a grant (or its absence) means at `now`. */
export function judgeGrant(grant: AccessTokenGrant | undefined, now: Date): TokenResolution {
  if (!grant) return { problem: 'unknown' };
  if (now >= grant.expiresAt) return { problem: 'expired' };
  return { principal: grant.principal };
}

export async function resolveAccessToken(db: Db, token: string, now: Date): Promise<TokenResolution> {
  return judgeGrant(await findAccessTokenGrant(db, hashSecret(token)), now);
}
