import { z } from 'zod';
import { parseVaultKeys, type VaultKey } from '../domain/vault-cipher';
import { ConfigError, type EnvOf, optionalUrl } from './env';
import type { Environment } from './service';

/** Credentials and keys: access-token lifetime, key rotation, the card vault, the back office. */

export const securityEnv = {
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(3600),
  API_KEY_ROTATION_GRACE_HOURS: z.coerce.number().min(0).max(720).default(24),
  CARD_VAULT_KEYS: optionalUrl.pipe(
    z
      .string()
      .refine((v) => {
        try {
          parseVaultKeys(v);
          return true;
        } catch {
          return false;
        }
      }, 'must be keyId:base64 pairs of 32-byte keys under distinct ids, comma-separated, the active key first')
      .optional(),
  ),
  ADMIN_API_TOKEN: optionalUrl.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
};

/**
 * Sandbox-only vault key, used when CARD_VAULT_KEYS is unset in sandbox: the sandbox accepts only
 * the public test cards, so there is nothing secret to protect. Production refuses to start
 * without CARD_VAULT_KEYS.
 */
const SANDBOX_VAULT_KEYS = `sandbox-1:${Buffer.from('payment-rescue-sandbox-vault-key').toString('base64')}`;

export interface SecurityConfig {
  auth: {
    accessTokenTtlSeconds: number;
    rotationGraceMs: number;
  };
  vaultKeys: VaultKey[];
  /** Operators' back-office credential (approve applications, raise disputes); unset: back office off. */
  adminToken: string | undefined;
}

export function securitySettings(e: EnvOf<typeof securityEnv>, environment: Environment): SecurityConfig {
  if (environment === 'production' && !e.CARD_VAULT_KEYS) {
    throw new ConfigError(['CARD_VAULT_KEYS: required in production (keyId:base64 of a 32-byte key)']);
  }
  return {
    auth: {
      accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
      rotationGraceMs: e.API_KEY_ROTATION_GRACE_HOURS * 3_600_000,
    },
    vaultKeys: parseVaultKeys(e.CARD_VAULT_KEYS ?? SANDBOX_VAULT_KEYS),
    adminToken: e.ADMIN_API_TOKEN,
  };
}
