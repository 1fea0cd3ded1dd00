import Router from '@koa/router';

/**
 * A router whose routes match their paths exactly as written, case included: `/V1/TOKENIZE` is no
 * route, so no spelling of a path reaches its route past a check keyed by the path (the failure
 * limits, the body parser's paths). Trailing and repeated slashes are made one spelling before
 * (middleware/canonical-path.ts).
 */
export function apiRouter(): Router {
  return new Router({ sensitive: true });
}
