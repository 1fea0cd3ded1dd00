import type { Middleware } from 'koa';
import { isDatabaseUnavailable, withDeadline } from '../../db/knex';
import type { Clock } from '../../domain/clock';
import { ApiError } from '../../domain/errors';
import type { Principal, Scope } from '../../domain/scopes';
import type { TokenCache } from '../token-cache';
import { databaseUnavailable } from './database-unavailable';

const CHALLENGE = 'Bearer realm="payment-rescue"';
const UNAVAILABLE =
  'Credentials cannot be checked right now (the database is unavailable). Retry after the Retry-After period.';

/**
 * Requires `authorization: Bearer <token>`; sets ctx.state.principal. Known tokens come from the
 * process's cache (src/api/token-cache.ts); a lookup in the database has a hard deadline: with Postgres down or frozen the caller gets 503 `503001` with Retry-After within
 * about 1.5 s (docs/errors.md), never a 500 or a hang.
 */
export function bearerAuth(tokens: TokenCache, clock: Clock): Middleware {
  return async (ctx, next) => {
    const match = /^Bearer[ ]+([A-Za-z0-9._~+/=-]+)$/i.exec(ctx.get('authorization'));
    if (!match?.[1]) throw new ApiError('invalid_token', { headers: { 'WWW-Authenticate': CHALLENGE } });
    const token = match[1];
    const resolved = await withDeadline(tokens.resolve(token, clock.now())).catch((err: unknown) => {
      if (isDatabaseUnavailable(err)) throw databaseUnavailable(UNAVAILABLE);
      throw err;
    });
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
