import Router from '@koa/router';
import type { Middleware } from 'koa';
import { z } from 'zod';
import type { Environment } from '../../config';
import type { Db } from '../../db/knex';
import { vaultCard } from '../../db/repositories/card-vault';
import { merchantForTokenizationKey } from '../../db/repositories/tokenization-keys';
import { checkCardForVault } from '../../domain/card-checks';
import type { Clock } from '../../domain/clock';
import { ApiError } from '../../domain/errors';
import type { VaultKey } from '../../domain/vault-cipher';
import { parseInput } from '../validation';

export const TOKENIZATION_KEY_HEADER = 'x-tokenization-key';

const body = z.object({
  cardNumber: z.string().max(32),
  expiryMonth: z.number().int().min(1).max(12),
  expiryYear: z.number().int().min(2000).max(2099),
  holderName: z.string().max(100).optional(), // accepted, never stored (data minimisation)
});

/** Authenticates with the tokenization key (not a bearer token); sets ctx.state.merchantId. */
export function tokenizationKeyAuth(db: Db): Middleware {
  return async (ctx, next) => {
    const key = ctx.get(TOKENIZATION_KEY_HEADER);
    const merchantId = key ? await merchantForTokenizationKey(db, key) : undefined;
    if (!merchantId) throw new ApiError('invalid_tokenization_key');
    ctx.state.merchantId = merchantId;
    await next();
  };
}

/**
 * POST /v1/tokenize: vaults a card number (AES-256-GCM) and answers its token with brand, BIN
 * and last4; 201 the first time, 200 with the same token when the merchant sends the same card
 * again. The number is never echoed, logged or kept in clear.
 */
export function tokenizeRoutes(deps: {
  db: Db;
  clock: Clock;
  environment: Environment;
  vaultKeys: VaultKey[];
  rateLimit: Middleware;
}): Router {
  const router = new Router();
  router.post('/v1/tokenize', tokenizationKeyAuth(deps.db), deps.rateLimit, async (ctx) => {
    const input = parseInput(body, ctx.request.body);
    const card = checkCardForVault(input, deps.environment, deps.clock.now());
    const { card: vaulted, created } = await vaultCard(
      deps.db,
      {
        merchantId: ctx.state.merchantId,
        pan: card.pan,
        brand: card.brand,
        expiryMonth: input.expiryMonth,
        expiryYear: input.expiryYear,
      },
      deps.vaultKeys,
    );
    ctx.status = created ? 201 : 200;
    ctx.body = vaulted;
  });
  return router;
}
