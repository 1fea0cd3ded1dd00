import { bodyParser } from '@koa/bodyparser';
import type { Middleware } from 'koa';
import { ApiError } from '../../domain/errors';
import { WIDGET_LIMITS } from '../../domain/widget-signals';
import { assertSafeBody } from './input-hygiene';
import { assertJsonStructure } from './json-body';

/**
 * The body of the widget's signals: JSON, sent as text/plain (what navigator.sendBeacon sends for
 * a string, with no CORS preflight) or as application/json. At most WIDGET_LIMITS.maxBodyBytes
 * (413010); unparsable JSON is 400001, and so is a body nested too deep or with a key twice in one
 * object (json-body.ts); any other content type 415001. Nothing is read past the cap.
 * Its strings get the same hygiene as every other body (400002 naming the field, input-hygiene.ts).
 */
export function widgetBody(): Middleware {
  const parse = bodyParser({
    enableTypes: ['json'],
    // Both listed: the parser merges this list over its defaults index by index.
    extendTypes: { json: ['application/json', 'text/plain'] },
    jsonLimit: WIDGET_LIMITS.maxBodyBytes,
    jsonStrict: true,
    onError: (err) => {
      const status = (err as { status?: number }).status;
      throw new ApiError(status === 413 ? 'widget_payload_too_large' : 'malformed_json');
    },
  });
  return async (ctx, next) => {
    if (!ctx.request.length && !ctx.get('transfer-encoding')) {
      ctx.request.body = {};
      return next();
    }
    if (!ctx.is('application/json', 'text/plain')) throw new ApiError('unsupported_media_type');
    return parse(ctx, async () => {
      assertJsonStructure(ctx);
      assertSafeBody(ctx.request.body);
      await next();
    });
  };
}
