import type Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import type { Db } from '../../db/knex';
import {
  createTokenizationKey,
  findMerchantTokenizationKey,
  listTokenizationKeys,
  revokeTokenizationKey,
  tokenizationKeyView,
} from '../../db/repositories/tokenization-keys';
import type { Clock } from '../../domain/clock';
import { ApiError } from '../../domain/errors';
import { merchantInReach } from '../access';
import { principalOf } from '../middleware/authenticate';
import { apiRouter } from '../router';
import { merchantIdInput, parseInput } from '../validation';

const guid = z.uuid();
export const createBody = z.object({ name: z.string().trim().min(1).max(100).optional() });

/**
 * A merchant's tokenization keys (docs/authentication.md#tokenization-keys), for the merchant's
 * own API key or its partner's: create (the key is shown this once), list, get, revoke. Another
 * merchant is 403 merchant_forbidden; another merchant's key id is 404, as an unknown one.
 */
export function tokenizationKeyRoutes(deps: { db: Db; clock: Clock; environment: string }): Router {
  const router = apiRouter();
  const path = '/v1/merchants/:mid/tokenization-keys';

  const reach = async (ctx: Context) => {
    const mid = parseInput(merchantIdInput(), ctx.params.mid, 'mid');
    await merchantInReach(deps.db, principalOf(ctx.state), mid);
    return mid;
  };

  router.post(path, async (ctx) => {
    const mid = await reach(ctx);
    const input = parseInput(createBody, ctx.request.body ?? {});
    const { row, key } = await createTokenizationKey(deps.db, {
      merchantId: mid,
      name: input.name ?? 'Tokenization key',
      environment: deps.environment,
    });
    ctx.status = 201;
    ctx.set('Location', `${path.replace(':mid', mid)}/${row.id}`);
    ctx.body = { ...tokenizationKeyView(row), key };
  });

  router.get(path, async (ctx) => {
    const mid = await reach(ctx);
    ctx.body = { mid, data: (await listTokenizationKeys(deps.db, mid)).map(tokenizationKeyView) };
  });

  const visibleKey = async (ctx: Context) => {
    const mid = await reach(ctx);
    const id = ctx.params.id as string;
    const row = guid.safeParse(id).success ? await findMerchantTokenizationKey(deps.db, mid, id) : undefined;
    if (!row) throw new ApiError('tokenization_key_not_found');
    return row;
  };

  router.get(`${path}/:id`, async (ctx) => {
    ctx.body = tokenizationKeyView(await visibleKey(ctx));
  });

  router.delete(`${path}/:id`, async (ctx) => {
    const row = await visibleKey(ctx);
    ctx.body = tokenizationKeyView(await revokeTokenizationKey(deps.db, row.id, deps.clock.now()));
  });
  return router;
}
