import type { Middleware } from 'koa';
import { ApiError, type ErrorName, errorBody } from '../../domain/errors';
import type { Logger } from '../../logger';
import { asApiError } from '../order-failures';

// Errors raised by Koa, the router or the body parser (http-errors), by status.
const FROM_HTTP_STATUS: Record<number, ErrorName> = {
  400: 'malformed_json',
  404: 'route_not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  501: 'method_not_allowed',
};

/**
 * Turns every failure into the one JSON error shape (docs/errors.md). Unknown errors become a 500
 * that says nothing about internals; the details go to the log under the request id.
 */
export function errorHandler(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      // Nothing answered: unknown route, or the router's 405 for a known path.
      if (ctx.body == null && (ctx.status === 404 || ctx.status === 405 || ctx.status === 501)) {
        throw new ApiError(FROM_HTTP_STATUS[ctx.status] as ErrorName);
      }
    } catch (err) {
      const apiError = toApiError(err);
      if (apiError.status >= 500) {
        logger.error({ requestId: ctx.state.requestId, err }, 'request failed');
      }
      ctx.status = apiError.status;
      ctx.state.errorId = apiError.definition.id; // the access log line names it (access-log.ts)
      for (const [name, value] of Object.entries(apiError.details.headers ?? {})) ctx.set(name, value);
      ctx.body = errorBody(apiError, ctx.state.requestId);
    }
  };
}

function toApiError(thrown: unknown): ApiError {
  const err = asApiError(thrown); // an order use case's typed failure (src/api/order-failures.ts)
  if (err instanceof ApiError) return err;
  const status = (err as { status?: unknown; expose?: unknown })?.status;
  if (typeof status === 'number' && FROM_HTTP_STATUS[status] && (err as { expose?: boolean }).expose !== false) {
    return new ApiError(FROM_HTTP_STATUS[status] as ErrorName);
  }
  return new ApiError('internal_error');
}
