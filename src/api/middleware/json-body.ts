import { bodyParser } from '@koa/bodyparser';
import type { Middleware } from 'koa';
import { ApiError } from '../../domain/errors';

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);
export const MAX_JSON_BODY = '256kb';

/**
 * Request bodies are JSON. A POST or PUT that carries a body of another type gets 415; an
 * unparsable body gets 400; a body over MAX_JSON_BODY gets 413. A POST with no body at all
 * (cancel, for example) is fine and reads as {}.
 */
export function jsonBody(): Middleware {
  const parse = bodyParser({
    enableTypes: ['json'],
    jsonLimit: MAX_JSON_BODY,
    jsonStrict: true,
    onError: (err) => {
      const status = (err as { status?: number }).status;
      throw new ApiError(status === 413 ? 'payload_too_large' : 'malformed_json');
    },
  });
  return async (ctx, next) => {
    if (!WITH_BODY.has(ctx.method)) return next();
    if (!ctx.request.length && !ctx.get('transfer-encoding')) {
      ctx.request.body = {};
      return next();
    }
    if (!ctx.is('application/json', '+json')) throw new ApiError('unsupported_media_type');
    return parse(ctx, next);
  };
}
