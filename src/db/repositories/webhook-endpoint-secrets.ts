import { randomBytes } from 'node:crypto';
import { openValue, sealValue, type VaultKey } from '../../domain/vault-cipher';
import type { WebhookEndpointRecord } from '../tables/webhook-endpoints';

/**
 * Webhook endpoints' signing secrets: sealed at rest (they must be read back to sign), which one
 * signs at a given instant, and rotation with an overlap (docs/webhooks.md, "Rotating the secret").
 * Rules over an endpoint row's secret columns only; webhook-endpoints.ts reads and writes the rows.
 */

/** The columns of a `webhook_endpoints` row that hold its signing secrets (EndpointRow has them all). */
export type SecretColumns = Pick<
  WebhookEndpointRecord,
  | 'id'
  | 'secret_key_id'
  | 'secret_iv'
  | 'secret_ciphertext'
  | 'secret_auth_tag'
  | 'pending_secret_key_id'
  | 'pending_secret_iv'
  | 'pending_secret_ciphertext'
  | 'pending_secret_auth_tag'
  | 'pending_secret_activates_at'
>;

const context = (id: string) => `webhook-secret:${id}`;

/** A signing secret: Base64 of 32 random bytes (the merchant Base64-decodes it to get the HMAC key). */
export function newSigningSecret(): string {
  return randomBytes(32).toString('base64');
}

export function sealed(id: string, secret: string, keys: VaultKey[]) {
  const s = sealValue(secret, context(id), keys);
  return { secret_key_id: s.keyId, secret_iv: s.iv, secret_ciphertext: s.ciphertext, secret_auth_tag: s.authTag };
}

/** The pending secret's columns, for the update that makes it (or clears it). */
function pendingColumns(id: string, secret: string | null, keys: VaultKey[], activatesAt: Date | null) {
  if (secret === null) {
    return {
      pending_secret_key_id: null,
      pending_secret_iv: null,
      pending_secret_ciphertext: null,
      pending_secret_auth_tag: null,
      pending_secret_activates_at: null,
    };
  }
  const s = sealed(id, secret, keys);
  return {
    pending_secret_key_id: s.secret_key_id,
    pending_secret_iv: s.secret_iv,
    pending_secret_ciphertext: s.secret_ciphertext,
    pending_secret_auth_tag: s.secret_auth_tag,
    pending_secret_activates_at: activatesAt,
  };
}

/** True when the row holds a rotated secret whose time has come at `at`. */
export function pendingSecretActive(row: SecretColumns, at: Date): boolean {
  return (
    row.pending_secret_ciphertext != null &&
    row.pending_secret_activates_at != null &&
    at.getTime() >= row.pending_secret_activates_at.getTime()
  );
}

/**
 * The secret that signs an attempt made at `at`: the rotated (pending) one once its activatesAt
 * has come, the current one before. Without `at`, the current secret (as before rotation existed).
 */
export function signingSecretOf(row: SecretColumns, keys: VaultKey[], at?: Date): string {
  if (at && pendingSecretActive(row, at)) return pendingSecretOf(row, keys) as string;
  return openValue(
    { keyId: row.secret_key_id, iv: row.secret_iv, ciphertext: row.secret_ciphertext, authTag: row.secret_auth_tag },
    context(row.id),
    keys,
  );
}

/** The rotated secret, whether or not its time has come; null when there is none. */
function pendingSecretOf(row: SecretColumns, keys: VaultKey[]): string | null {
  if (!row.pending_secret_key_id || !row.pending_secret_iv || !row.pending_secret_ciphertext) return null;
  return openValue(
    {
      keyId: row.pending_secret_key_id,
      iv: row.pending_secret_iv,
      ciphertext: row.pending_secret_ciphertext,
      authTag: row.pending_secret_auth_tag as Buffer,
    },
    context(row.id),
    keys,
  );
}

/**
 * The secrets a merchant should accept at `at`, newest first: during a rotation both the pending
 * and the current one (the service signs with exactly one of them, chosen by the attempt time).
 */
export function acceptedSecretsOf(row: SecretColumns, keys: VaultKey[], at: Date): string[] {
  const current = signingSecretOf(row, keys);
  const pending = pendingSecretOf(row, keys);
  if (pending === null) return [current];
  return pendingSecretActive(row, at) ? [pending] : [pending, current];
}

/** How long the old secret keeps signing after a rotation unless the request says otherwise: 24 hours. */
export const DEFAULT_SECRET_OVERLAP_MS = 24 * 3_600_000;

/**
 * The column change that rotates the signing secret to `secret`: it signs from `activatesAt` on,
 * the old one until then; `activatesAt` at or before `now` switches at once. A pending secret whose
 * time has already come becomes the current one first; one still waiting is replaced (it never signed).
 */
export function rotatedSecretColumns(
  id: string,
  current: SecretColumns | undefined,
  secret: string,
  keys: VaultKey[],
  now: Date,
  activatesAt: Date,
) {
  const promote =
    current && pendingSecretActive(current, now)
      ? {
          secret_key_id: current.pending_secret_key_id,
          secret_iv: current.pending_secret_iv,
          secret_ciphertext: current.pending_secret_ciphertext,
          secret_auth_tag: current.pending_secret_auth_tag,
        }
      : {};
  return activatesAt.getTime() <= now.getTime()
    ? { ...sealed(id, secret, keys), ...pendingColumns(id, null, keys, null) }
    : { ...promote, ...pendingColumns(id, secret, keys, activatesAt) };
}
