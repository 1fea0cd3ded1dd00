import type { Middleware } from 'koa';

/**
 * Collapses repeated slashes in the request path (`/v1//outcome` is `/v1/outcome`): the
 * vendor's Node sample joins a base URL ending in `/` with paths starting with `/`. The query
 * string is left as it is. Runs before anything reads the path (body parsing, routing, metrics).
 */
export function collapseSlashes(): Middleware {
  return async (ctx, next) => {
    if (ctx.path.includes('//')) ctx.path = ctx.path.replace(/\/{2,}/g, '/');
    await next();
  };
}
