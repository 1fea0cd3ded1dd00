import { bodyParser } from '@koa/bodyparser';
import type { Context, Middleware } from 'koa';
import { ApiError } from '../../domain/errors';
import { findJsonStructureProblem, MAX_JSON_DEPTH } from '../../domain/json-structure';

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);
export const MAX_JSON_BODY = '256kb';

/**
 * Request bodies are JSON. A POST or PUT that carries a body of another type (another `+json`
 * type too, as the interface asks for `application/json`) gets 415; an
 * unparsable body gets 400; a body over MAX_JSON_BODY gets 413. A POST with no body at all
 * (cancel, for example) is fine and reads as {}. `formPaths` also take form encoding (the OAuth2
 * token endpoint, as RFC 6749 requires); their 400s answer in the RFC 6749 shape. `ownParserPaths`
 * are left to their routes, which parse their own bodies (the widget's signals arrive as
 * text/plain from sendBeacon, with a smaller cap).
 */
export function jsonBody(options: { formPaths?: string[]; ownParserPaths?: RegExp } = {}): Middleware {
  const formPaths = new Set(options.formPaths ?? []);
  const ownParserPaths = options.ownParserPaths;
  const parse = bodyParser({
    enableTypes: ['json', 'form'],
    formLimit: MAX_JSON_BODY,
    jsonLimit: MAX_JSON_BODY,
    jsonStrict: true,
    onError: (err, ctx) => {
      const status = (err as { status?: number }).status;
      if (status === 413) throw new ApiError('payload_too_large');
      throw new ApiError('malformed_json', formPaths.has(ctx.path) ? { oauthError: 'invalid_request' } : {});
    },
  });
  return async (ctx, next) => {
    if (!WITH_BODY.has(ctx.method) || ownParserPaths?.test(ctx.path)) return next();
    if (!ctx.request.length && !ctx.get('transfer-encoding')) {
      ctx.request.body = {};
      return next();
    }
    const form = formPaths.has(ctx.path);
    // Only the types the parser reads: another `+json` type would pass here and parse as {}.
    const acceptable = form ? ctx.is('application/json', 'urlencoded') : ctx.is('application/json');
    if (!acceptable) throw new ApiError('unsupported_media_type');
    return parse(ctx, async () => {
      assertJsonStructure(ctx, { oauth: form });
      await next();
    });
  };
}

/**
 * After a JSON body parsed: its raw text nests at most MAX_JSON_DEPTH deep and repeats no key in
 * any object (src/domain/json-structure.ts), otherwise 400 malformed_json (with `field` naming a
 * repeated key). Form bodies have no nesting or keys of JSON's kind and are left alone.
 */
export function assertJsonStructure(ctx: Context, options: { oauth?: boolean } = {}): void {
  const raw = (ctx.request as { rawBody?: unknown }).rawBody;
  if (typeof raw !== 'string' || ctx.is('urlencoded')) return;
  const finding = findJsonStructureProblem(raw);
  if (!finding) return;
  const oauth = options.oauth ? { oauthError: 'invalid_request' } : {};
  if (finding.problem === 'too_deep') {
    throw new ApiError('malformed_json', {
      message: `The request body nests objects and arrays more than ${MAX_JSON_DEPTH} deep.`,
      ...oauth,
    });
  }
  throw new ApiError('malformed_json', {
    field: finding.field,
    message: `${finding.field}: the key appears more than once in its object.`,
    ...oauth,
  });
}
