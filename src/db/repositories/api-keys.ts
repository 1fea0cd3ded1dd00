import type { Scope } from '../../domain/scopes';
import { generateSecret, hashSecret, secretMatches } from '../../domain/secrets';
import type { Db } from '../knex';
import type { ApiKeyRecord } from '../tables/api-keys';

/** A row of `api_keys` (its columns: src/db/tables/api-keys.ts). */
export type ApiKeyRow = ApiKeyRecord;

/** The API key record as the API shows it. Secrets are never part of it. */
export function apiKeyView(row: ApiKeyRow) {
  return {
    id: row.id,
    clientId: row.id,
    ownerType: row.owner_type,
    pid: row.partner_id,
    mid: row.merchant_id,
    name: row.name,
    description: row.description,
    scopes: row.scopes,
    status: row.revoked_at ? 'revoked' : 'active',
    secretHint: row.secret_hint ? `...${row.secret_hint}` : null,
    previousSecretExpiresAt: row.previous_secret_expires_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    revokedAt: row.revoked_at?.toISOString() ?? null,
  };
}

function secretPrefix(environment: string): string {
  return environment === 'production' ? 'sk_live' : 'sk_sandbox';
}

export async function createApiKey(
  db: Db,
  input: {
    ownerType: 'merchant' | 'partner';
    partnerId: string;
    merchantId: string | null;
    name: string;
    description?: string | null;
    scopes: Scope[];
    environment: string;
  },
): Promise<{ row: ApiKeyRow; secret: string }> {
  const secret = generateSecret(secretPrefix(input.environment));
  const [row] = await db('api_keys')
    .insert({
      owner_type: input.ownerType,
      partner_id: input.partnerId,
      merchant_id: input.merchantId,
      name: input.name,
      description: input.description ?? null,
      scopes: input.scopes,
      secret_hash: hashSecret(secret),
      secret_hint: secret.slice(-4),
    })
    .returning('*');
  return { row: row as ApiKeyRow, secret };
}

export async function findApiKey(db: Db, id: string): Promise<ApiKeyRow | undefined> {
  return db('api_keys').where({ id }).first();
}

export async function listMerchantApiKeys(db: Db, merchantId: string): Promise<ApiKeyRow[]> {
  return db('api_keys').where({ merchant_id: merchantId }).orderBy('created_at', 'asc');
}

export async function updateApiKey(
  db: Db,
  id: string,
  fields: { name?: string; description?: string | null; scopes?: Scope[] },
  now: Date,
): Promise<ApiKeyRow> {
  const [row] = await db('api_keys')
    .where({ id })
    .update({ ...fields, updated_at: now })
    .returning('*');
  return row as ApiKeyRow;
}

/**
 * Issues a new secret. The old one keeps working until `now + graceMs`, then stops; a second
 * rotation inside the grace period ends the grace of the secret before it at once.
 */
export async function rotateApiKeySecret(
  db: Db,
  id: string,
  environment: string,
  now: Date,
  graceMs: number,
): Promise<{ row: ApiKeyRow; secret: string }> {
  const secret = generateSecret(secretPrefix(environment));
  const [row] = await db('api_keys')
    .where({ id })
    .update({
      previous_secret_hash: db.ref('secret_hash'),
      previous_secret_expires_at: new Date(now.getTime() + graceMs),
      secret_hash: hashSecret(secret),
      secret_hint: secret.slice(-4),
      updated_at: now,
    } as never)
    .returning('*');
  return { row: row as ApiKeyRow, secret };
}

/** Revokes at once: the key's secrets and every token issued from it stop working. */
export async function revokeApiKey(db: Db, id: string, now: Date): Promise<ApiKeyRow> {
  const [row] = await db('api_keys')
    .where({ id })
    .update({ revoked_at: db.raw('coalesce(revoked_at, ?)', [now]) as never, updated_at: now })
    .returning('*');
  await db('access_tokens').where({ api_key_id: id }).delete();
  return row as ApiKeyRow;
}

/** True when `secret` is the key's current secret, or its previous one inside the grace period. */
export function acceptsSecret(row: ApiKeyRow, secret: string, now: Date): boolean {
  if (row.revoked_at) return false;
  if (secretMatches(secret, row.secret_hash)) return true;
  return Boolean(
    row.previous_secret_hash &&
      row.previous_secret_expires_at &&
      now < row.previous_secret_expires_at &&
      secretMatches(secret, row.previous_secret_hash),
  );
}
