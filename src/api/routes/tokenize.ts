import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { z } from 'zod';
import type { Environment } from '../../config';
import type { Db } from '../../db/knex';
import { type VaultedCard, vaultCard } from '../../db/repositories/card-vault';
import { merchantForTokenizationKey } from '../../db/repositories/tokenization-keys';
import { checkCardForVault } from '../../domain/card-checks';
import type { Clock } from '../../domain/clock';
import { ApiError } from '../../domain/errors';
import { withoutNulls } from '../../domain/orders/evaluate-request';
import type { VaultKey } from '../../domain/vault-cipher';
import { payingMerchant } from '../access';
import { principalOf, requireScope } from '../middleware/authenticate';
import { apiRouter } from '../router';
import { stateOf } from '../state';
import { parseInput } from '../validation';

export const TOKENIZATION_KEY_HEADER = 'x-tokenization-key';

const BEARER_REFUSED =
  'POST /v1/tokenize authenticates with a tokenization key in the x-tokenization-key header; a bearer token is accepted only with the Spreedly-shaped body ({"payment_method":{"credit_card":{...}}}) ActiveMerchant sends.';

const month = z.number().int().min(1).max(12);
const year = z.number().int().min(2000).max(2099);

export const ours = z.object({
  cardNumber: z.string().max(32),
  expiryMonth: month,
  expiryYear: year,
  holderName: z.string().max(100).optional(), // accepted, never stored (data minimisation)
});

/**
 * The Spreedly-shaped body ActiveMerchant's FlexCharge gateway sends to store a card. The
 * names are echoed in the answer (as the real service does) and never stored; the verification
 * value is accepted and discarded at once.
 */
export const spreedly = z.object({
  payment_method: z.object({
    credit_card: z.object({
      number: z.string().max(32),
      month,
      year,
      first_name: z.string().max(100).optional(),
      last_name: z.string().max(100).optional(),
      verification_value: z.union([z.string().max(8), z.number()]).optional(),
    }),
  }),
});

/** Each dialect normalised to one shape (`names` set only for the Spreedly dialect). */
const oursBody = ours.transform((b) => ({
  cardNumber: b.cardNumber,
  expiryMonth: b.expiryMonth,
  expiryYear: b.expiryYear,
  names: undefined,
}));
const spreedlyBody = spreedly.transform(({ payment_method: { credit_card: c } }) => ({
  cardNumber: c.number,
  expiryMonth: c.month,
  expiryYear: c.year,
  names: { first: c.first_name ?? null, last: c.last_name ?? null },
}));

/** Whether a body is written in the Spreedly dialect: it has a `payment_method` member. */
function isSpreedlyBody(body: unknown): boolean {
  return typeof body === 'object' && body !== null && 'payment_method' in body;
}

/** The body in whichever dialect it is written. */
function parseBody(raw: unknown) {
  const body = withoutNulls(raw);
  return isSpreedlyBody(body) ? parseInput(spreedlyBody, body) : parseInput(oursBody, body);
}

/**
 * Authenticates with the tokenization key (the interface's way); sets ctx.state.merchantId.
 * Without that header, a bearer token of a merchant key with the `payments` scope is accepted
 * for the Spreedly-shaped body only: that is what ActiveMerchant's FlexCharge gateway sends, and
 * the one deviation docs/compatibility.md lists. Our own body with a bearer token is refused
 * (401 `401004`), as the interface says.
 */
export function tokenizationKeyAuth(db: Db, bearer: Middleware): Middleware {
  const payments = requireScope('payments');
  return async (ctx, next) => {
    const key = ctx.get(TOKENIZATION_KEY_HEADER);
    if (!key && /^Bearer\s/i.test(ctx.get('authorization'))) {
      if (!isSpreedlyBody(ctx.request.body))
        throw new ApiError('invalid_tokenization_key', { message: BEARER_REFUSED });
      return bearer(ctx, () =>
        payments(ctx, async () => {
          ctx.state.merchantId = payingMerchant(principalOf(ctx.state));
          await next();
        }),
      );
    }
    const merchantId = key ? await merchantForTokenizationKey(db, key) : undefined;
    if (!merchantId) throw new ApiError('invalid_tokenization_key');
    ctx.state.merchantId = merchantId;
    await next();
  };
}

/**
 * POST /v1/tokenize: vaults a card number (AES-256-GCM) and answers its token with brand, BIN
 * and last4. With the tokenization key, 201 and a token of its own every time; with a bearer
 * token (ActiveMerchant), 201 the first time, 200 with the same token when the merchant sends the
 * same card again. The number is never echoed, logged or kept in clear.
 */
export function tokenizeRoutes(deps: {
  db: Db;
  clock: Clock;
  environment: Environment;
  vaultKeys: VaultKey[];
  rateLimit: Middleware;
  /** The app's bearer check (src/api/middleware/authenticate.ts), for ActiveMerchant's bearer-token calls. */
  bearer: Middleware;
}): Router {
  const router = apiRouter();
  router.post('/v1/tokenize', tokenizationKeyAuth(deps.db, deps.bearer), deps.rateLimit, async (ctx) => {
    const input = parseBody(ctx.request.body);
    const card = checkCardForVault(input, deps.environment, deps.clock.now());
    const { card: vaulted, created } = await vaultCard(
      deps.db,
      {
        merchantId: stateOf(ctx.state, 'merchantId'),
        pan: card.pan,
        brand: card.brand,
        expiryMonth: input.expiryMonth,
        expiryYear: input.expiryYear,
      },
      deps.vaultKeys,
      // No bearer principal: the public tokenization key, whose calls never touch another token.
      { ownToken: !ctx.state.principal },
    );
    ctx.status = created ? 201 : 200;
    ctx.body = input.names ? spreedlyAnswer(vaulted, input.names, deps.environment, deps.clock.now()) : vaulted;
  });
  return router;
}

/**
 * The Spreedly-shaped answer: ActiveMerchant reads `transaction.payment_method.token`. Card
 * data in it is what the vault keeps in clear (BIN, last4, brand, expiry) plus the names sent.
 */
function spreedlyAnswer(
  card: VaultedCard,
  names: { first: string | null; last: string | null },
  environment: Environment,
  now: Date,
) {
  const at = now.toISOString();
  return {
    transaction: {
      succeeded: true,
      on_test_gateway: environment === 'sandbox',
      created_at: at,
      updated_at: at,
      payment_method_added: true,
      payment_method: {
        token: card.token,
        created_at: at,
        updated_at: at,
        test: environment === 'sandbox',
        last_four_digits: card.last4,
        first_six_digits: card.bin,
        card_type: card.brand,
        first_name: names.first,
        last_name: names.last,
        month: card.expiryMonth,
        year: card.expiryYear,
        payment_method_type: 'credit_card',
        verification_value: null,
        number: null,
      },
    },
    success: true,
    result: null,
    status: null,
    statusCode: null,
    errors: [],
    customProperties: {},
  };
}
