import type Router from '@koa/router';
import type { Middleware } from 'koa';

/**
 * Puts `guards` (authentication, scope) in front of every route of `router`, and only there.
 * Router#use is not enough: a router's `use` middleware also runs for requests that match routes
 * of routers mounted after it (observed with @koa/router 15), so a scope check would leak onto
 * other resources. Call after the routes are defined.
 */
export function guardRoutes(router: Router, ...guards: Middleware[]): Router {
  for (const layer of router.stack) {
    if (layer.methods.length) layer.stack.unshift(...(guards as typeof layer.stack));
  }
  return router;
}
