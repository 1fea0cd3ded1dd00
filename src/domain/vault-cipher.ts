import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/**
 * Authenticated encryption of card numbers (AES-256-GCM). Keys come from configuration as
 * `keyId:base64key` pairs; the first is used to encrypt, every one can decrypt, so keys rotate
 * by prepending a new one. The associated data binds a ciphertext to its merchant and token, so a
 * row copied elsewhere does not decrypt.
 */
export interface VaultKey {
  id: string;
  key: Buffer;
}

export interface SealedCard {
  keyId: string;
  iv: Buffer;
  ciphertext: Buffer;
  authTag: Buffer;
}

export function parseVaultKeys(spec: string): VaultKey[] {
  const keys = spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((pair) => {
      const [id, b64] = pair.split(':');
      const key = Buffer.from(b64 ?? '', 'base64');
      if (!id || key.length !== 32) throw new Error('each key must be keyId:base64 of 32 bytes');
      return { id, key };
    });
  if (keys.length === 0) throw new Error('at least one key is required');
  // A sealed value names its key by id: two keys under one id would open it with the wrong one.
  const ids = keys.map((k) => k.id);
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice) throw new Error(`key id ${twice} is given twice: each key needs an id of its own`);
  return keys;
}

function cardContext(merchantId: string, token: string): string {
  return `${merchantId}:${token}`;
}

/** GCM's full tag: a shorter one would be accepted as given, cutting the tamper check to its length. */
const AUTH_TAG_LENGTH = 16;

/** Encrypts any secret value, bound to `context` (associated data: it must match to decrypt). */
export function sealValue(plaintext: string, context: string, keys: VaultKey[]): SealedCard {
  const [active] = keys;
  if (!active) throw new Error('no vault key');
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', active.key, iv, { authTagLength: AUTH_TAG_LENGTH });
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { keyId: active.id, iv, ciphertext, authTag: cipher.getAuthTag() };
}

export function openValue(sealed: SealedCard, context: string, keys: VaultKey[]): string {
  const key = keys.find((k) => k.id === sealed.keyId);
  if (!key) throw new Error(`vault key ${sealed.keyId} is not configured`);
  const decipher = createDecipheriv('aes-256-gcm', key.key, sealed.iv, { authTagLength: AUTH_TAG_LENGTH });
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(sealed.authTag);
  return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]).toString('utf8');
}

export function sealCard(pan: string, merchantId: string, token: string, keys: VaultKey[]): SealedCard {
  return sealValue(pan, cardContext(merchantId, token), keys);
}

export function openCard(sealed: SealedCard, merchantId: string, token: string, keys: VaultKey[]): string {
  return openValue(sealed, cardContext(merchantId, token), keys);
}

/**
 * A card number as a request's idempotency hash takes it: its fingerprint under the oldest
 * configured vault key. A rotation prepends the new key, so a retry that reaches a process with the
 * new key list (a rolling deploy, or any time in the key's 24 hours) hashes as the first did; only
 * retiring that oldest key changes it.
 */
export function requestCardFingerprint(pan: string, merchantId: string, keys: VaultKey[]): string {
  const oldest = keys.at(-1);
  if (!oldest) throw new Error('no vault key to fingerprint the card with');
  return cardFingerprints(pan, merchantId, [oldest])[0] as string;
}

/**
 * Per-merchant fingerprints of a card number, for "same card, same token" without decrypting:
 * HMAC-SHA256 under a key derived from each configured vault key, the active key's first. New
 * rows store the first; lookups match any, so de-duplication survives a key rotation for as long
 * as the old key stays configured.
 */
export function cardFingerprints(pan: string, merchantId: string, keys: VaultKey[]): string[] {
  return keys.map((k) => {
    const fingerprintKey = createHmac('sha256', k.key).update('card-fingerprint-v1').digest();
    return createHmac('sha256', fingerprintKey).update(`${merchantId}:${pan}`).digest('hex');
  });
}
