import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Secrets the service issues (API client secrets, tokenization keys) are 32 random bytes, so a
 * fast hash is enough to store them: there is nothing to brute-force. Only the hash is kept.
 */
export function generateSecret(prefix: string): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export function secretMatches(secret: string, storedHash: string): boolean {
  const a = Buffer.from(hashSecret(secret), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
