import type { Middleware } from 'koa';
import { isDatabaseUnavailable } from '../../db/knex';
import { databaseUnavailable } from '../../domain/database-unavailable';
import { ApiError } from '../../domain/errors';
import type { Logger } from '../../logger';

// Built in src/domain so that use cases (src/idempotency) can answer it without the HTTP layer.
export { DATABASE_RETRY_AFTER_SECONDS, databaseUnavailable } from '../../domain/database-unavailable';

/**
 * Placed inside errorHandler: any failure that means "Postgres is unreachable, frozen or
 * restarting" (wherever it happened: the bearer check, a lookup, a write) answers 503 `503001`
 * with Retry-After instead of a 500. Such a failure never changed anything the caller can see
 * half-done that a retry would not also see (idempotent operations free their key on it).
 */
export function databaseOutageAs503(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      if (err instanceof ApiError || !isDatabaseUnavailable(err)) throw err;
      logger.warn({ requestId: ctx.state.requestId, err }, 'database unavailable: answering 503');
      throw databaseUnavailable(
        'The service is temporarily unavailable (its database). Retry after the Retry-After period.',
      );
    }
  };
}
