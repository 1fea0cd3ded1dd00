import type { Middleware } from 'koa';
import type { Db } from '../../db/knex';
import { resolveAccessToken } from '../../db/repositories/access-tokens';
import type { Clock } from '../../domain/clock';
import { ApiError } from '../../domain/errors';
import type { Principal, Scope } from '../../domain/scopes';

const CHALLENGE = 'Bearer realm="payment-rescue"';

/** Requires `authorization: Bearer <token>`; sets ctx.state.principal. */
export function bearerAuth(db: Db, clock: Clock): Middleware {
  return async (ctx, next) => {
    const match = /^Bearer[ ]+([A-Za-z0-9._~+/=-]+)$/i.exec(ctx.get('authorization'));
    if (!match?.[1]) throw new ApiError('invalid_token', { headers: { 'WWW-Authenticate': CHALLENGE } });
    const resolved = await resolveAccessToken(db, match[1], clock.now());
    if ('problem' in resolved) {
      const expired = resolved.problem === 'expired';
      throw new ApiError(expired ? 'token_expired' : 'invalid_token', {
        headers: {
          'WWW-Authenticate': `${CHALLENGE}, error="invalid_token", error_description="${expired ? 'the access token expired' : 'unknown token'}"`,
        },
      });
    }
    ctx.state.principal = resolved.principal;
    await next();
  };
}

export function principalOf(state: { principal?: Principal }): Principal {
  if (!state.principal) throw new ApiError('invalid_token');
  return state.principal;
}

/** 403 insufficient_scope unless the caller's key has `scope`. */
export function requireScope(scope: Scope): Middleware {
  return async (ctx, next) => {
    if (!principalOf(ctx.state).scopes.includes(scope)) {
      throw new ApiError('insufficient_scope', { message: `This API key lacks the "${scope}" scope.` });
    }
    await next();
  };
}
