import type Router from '@koa/router';
import { z } from 'zod';
import type { Db } from '../../db/knex';
import {
  type ApiKeyRow,
  apiKeyView,
  createApiKey,
  findApiKey,
  listMerchantApiKeys,
  revokeApiKey,
  rotateApiKeySecret,
  updateApiKey,
} from '../../db/repositories/api-keys';
import type { Clock } from '../../domain/clock';
import { ApiError } from '../../domain/errors';
import { type Principal, SCOPES } from '../../domain/scopes';
import { canManageApiKey, merchantInReach } from '../access';
import { principalOf } from '../middleware/authenticate';
import { apiRouter } from '../router';
import { merchantIdInput, parseInput } from '../validation';

const scopes = z
  .array(z.enum(SCOPES))
  .min(1)
  .refine((s) => new Set(s).size === s.length, 'scopes must not repeat');
const name = z.string().trim().min(1).max(100);
const description = z.string().trim().max(500).nullable();

export const createBody = z.object({
  mid: merchantIdInput().optional(),
  name,
  description: description.optional(),
  scopes: scopes.optional(),
});
export const updateBody = z
  .object({ name, description, scopes, rotateSecret: z.literal(true) })
  .partial()
  .refine((v) => Object.keys(v).length > 0, 'name at least one of name, description, scopes, rotateSecret');
export const listQuery = z.object({ mid: merchantIdInput('mid (the merchant GUID) is required') });
const idParam = z.uuid();

/** A key never hands out more than its own scopes: not by granting them, nor by a secret it rotates. */
function noEscalation(principal: Principal, requested: readonly string[], doing = 'grant scopes'): void {
  const beyond = requested.filter((s) => !principal.scopes.includes(s as Principal['scopes'][number]));
  if (beyond.length)
    throw new ApiError('insufficient_scope', { message: `Cannot ${doing} this key lacks: ${beyond.join(', ')}.` });
}

/**
 * API key management (docs/authentication.md). Keys of merchants outside the caller's reach
 * answer 404, as unknown ones do; secrets are shown once, on create and on rotation.
 */
export function apiKeyRoutes(deps: { db: Db; clock: Clock; environment: string; rotationGraceMs: number }): Router {
  const router = apiRouter();

  async function visibleKey(principal: Principal, id: string): Promise<ApiKeyRow> {
    const key = idParam.safeParse(id).success ? await findApiKey(deps.db, id) : undefined;
    if (!key || !canManageApiKey(principal, key)) throw new ApiError('api_key_not_found');
    return key;
  }

  router.post('/v1/api-keys', async (ctx) => {
    const principal = principalOf(ctx.state);
    const input = parseInput(createBody, ctx.request.body);
    const wanted = input.scopes ?? principal.scopes;
    noEscalation(principal, wanted);
    const merchantId = input.mid ?? principal.merchantId;
    if (merchantId) await merchantInReach(deps.db, principal, merchantId);
    const { row, secret } = await createApiKey(deps.db, {
      ownerType: merchantId ? 'merchant' : 'partner',
      partnerId: principal.partnerId,
      merchantId,
      name: input.name,
      description: input.description ?? null,
      scopes: wanted,
      environment: deps.environment,
    });
    ctx.status = 201;
    ctx.set('Location', `/v1/api-keys/${row.id}`);
    ctx.body = { ...apiKeyView(row), secret };
  });

  router.get('/v1/api-keys', async (ctx) => {
    const principal = principalOf(ctx.state);
    const { mid } = parseInput(listQuery, ctx.query);
    await merchantInReach(deps.db, principal, mid);
    const keys = await listMerchantApiKeys(deps.db, mid);
    ctx.body = { mid, data: keys.map(apiKeyView) };
  });

  router.get('/v1/api-keys/:id', async (ctx) => {
    ctx.body = apiKeyView(await visibleKey(principalOf(ctx.state), ctx.params.id as string));
  });

  router.put('/v1/api-keys/:id', async (ctx) => {
    const principal = principalOf(ctx.state);
    const key = await visibleKey(principal, ctx.params.id as string);
    const input = parseInput(updateBody, ctx.request.body);
    if (key.revoked_at) throw new ApiError('api_key_revoked');
    if (input.scopes) noEscalation(principal, input.scopes);
    // The new secret is the key's power in the caller's hands: only a caller with all its scopes gets it.
    if (input.rotateSecret) noEscalation(principal, key.scopes, 'rotate the secret of a key whose scopes');
    const now = deps.clock.now();
    const { rotateSecret, ...fields } = input;
    let row = Object.keys(fields).length ? await updateApiKey(deps.db, key.id, fields, now) : key;
    let secret: string | undefined;
    if (rotateSecret)
      ({ row, secret } = await rotateApiKeySecret(deps.db, key.id, deps.environment, now, deps.rotationGraceMs));
    ctx.body = { ...apiKeyView(row), ...(secret ? { secret } : {}) };
  });

  router.delete('/v1/api-keys/:id', async (ctx) => {
    const key = await visibleKey(principalOf(ctx.state), ctx.params.id as string);
    ctx.body = apiKeyView(await revokeApiKey(deps.db, key.id, deps.clock.now()));
  });
  return router;
}
