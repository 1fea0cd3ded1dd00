import type { Middleware } from 'koa';

/**
 * One spelling of each path, before anything reads it (body parsing, limits, routing, metrics):
 * repeated slashes collapse (`/v1//outcome` is `/v1/outcome`: the vendor's Node sample joins a
 * base URL ending in `/` with paths starting with `/`), and a trailing slash goes (`/v1/tokenize/`
 * is `/v1/tokenize`), so a variant cannot reach a route past a check keyed by its path. Routes
 * match case-sensitively (src/api/router.ts) for the same reason. The query string is left as it is.
 */
export function canonicalPath(): Middleware {
  return async (ctx, next) => {
    let path = ctx.path;
    if (path.includes('//')) path = path.replace(/\/{2,}/g, '/');
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    if (path !== ctx.path) ctx.path = path;
    await next();
  };
}
