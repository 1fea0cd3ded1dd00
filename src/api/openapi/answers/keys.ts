import { z } from 'zod';
import { SCOPES } from '../../../domain/scopes';

/**
 * API keys, tokenization keys and partners as the routes answer them (apiKeyView,
 * tokenizationKeyView, partnerView in src/db/repositories). Loose objects: a field added later
 * does not break a client.
 */
const uuid = z.uuid();
const instant = z.iso.datetime({ offset: true });

export const apiKey = z
  .looseObject({
    id: uuid,
    clientId: uuid.describe('The `client_id` of POST /v1/oauth2/token (the same as `id`).'),
    ownerType: z.enum(['merchant', 'partner']),
    pid: uuid,
    mid: uuid.nullable(),
    name: z.string(),
    description: z.string().nullable(),
    scopes: z.array(z.enum(SCOPES)),
    status: z.enum(['active', 'revoked']),
    secretHint: z.string().nullable().describe('`...` and the last four characters of the secret.'),
    previousSecretExpiresAt: instant.nullable().describe('Until then the secret before a rotation still works.'),
    createdAt: instant,
    updatedAt: instant,
    revokedAt: instant.nullable(),
  })
  .meta({ id: 'ApiKey' });

export const apiKeyWithSecret = apiKey
  .extend({ secret: z.string().describe('The `client_secret`; shown only on creation and rotation.') })
  .meta({ id: 'ApiKeyWithSecret' });

/** PUT answers the secret only when it rotated it. */
export const apiKeyMaybeWithSecret = apiKey.extend({ secret: apiKeyWithSecret.shape.secret.optional() });

export const apiKeyList = z.object({ mid: uuid.nullable(), data: z.array(apiKey) }).meta({ id: 'ApiKeyList' });

export const tokenizationKey = z
  .looseObject({
    id: uuid,
    mid: uuid,
    name: z.string(),
    status: z.enum(['active', 'revoked']),
    keyHint: z.string().nullable().describe('`...` and the last four characters of the key.'),
    createdAt: instant,
    revokedAt: instant.nullable(),
  })
  .meta({ id: 'TokenizationKey' });

export const tokenizationKeyWithKey = tokenizationKey
  .extend({ key: z.string().describe('The key for `x-tokenization-key`; shown only on creation.') })
  .meta({ id: 'TokenizationKeyWithKey' });

export const tokenizationKeyList = z
  .object({ mid: uuid, data: z.array(tokenizationKey) })
  .meta({ id: 'TokenizationKeyList' });

export const partnerWithKey = z
  .looseObject({ pid: uuid, name: z.string(), createdAt: instant, apiKey: apiKeyWithSecret })
  .meta({ id: 'PartnerWithKey', description: 'The partner and its first API key, with the secret (shown once).' });
