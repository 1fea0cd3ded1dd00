import { bodyParser } from '@koa/bodyparser';
import type { Middleware } from 'koa';
import { ApiError } from '../../domain/errors';

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);
export const MAX_JSON_BODY = '256kb';

/**
 * Request bodies are JSON. A POST or PUT that carries a body of another type gets 415; an
 * unparsable body gets 400; a body over MAX_JSON_BODY gets 413. A POST with no body at all
 * (cancel, for example) is fine and reads as {}. `formPaths` also take form encoding (the OAuth2
 * token endpoint, as RFC 6749 requires). `ownParserPaths` are left to their routes, which parse
 * their own bodies (the widget's signals arrive as text/plain from sendBeacon, with a smaller cap).
 */
export function jsonBody(options: { formPaths?: string[]; ownParserPaths?: RegExp } = {}): Middleware {
  const formPaths = new Set(options.formPaths ?? []);
  const ownParserPaths = options.ownParserPaths;
  const parse = bodyParser({
    enableTypes: ['json', 'form'],
    formLimit: MAX_JSON_BODY,
    jsonLimit: MAX_JSON_BODY,
    jsonStrict: true,
    onError: (err) => {
      const status = (err as { status?: number }).status;
      throw new ApiError(status === 413 ? 'payload_too_large' : 'malformed_json');
    },
  });
  return async (ctx, next) => {
    if (!WITH_BODY.has(ctx.method) || ownParserPaths?.test(ctx.path)) return next();
    if (!ctx.request.length && !ctx.get('transfer-encoding')) {
      ctx.request.body = {};
      return next();
    }
    const acceptable = formPaths.has(ctx.path)
      ? ctx.is('application/json', '+json', 'urlencoded')
      : ctx.is('application/json', '+json');
    if (!acceptable) throw new ApiError('unsupported_media_type');
    return parse(ctx, next);
  };
}
