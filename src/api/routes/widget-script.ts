import type Router from '@koa/router';
import type { Context } from 'koa';
import { apiRouter } from '../router';
import type { WidgetBundle } from '../widget-bundle';

/** The loader URL changes content on deploys: caches revalidate after five minutes. */
export const LOADER_CACHE_CONTROL = 'public, max-age=300, stale-while-revalidate=60';
/** The hashed URL never changes content. */
export const HASHED_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/**
 * `{widget_url}`: GET /widget/fc.js (the URL in the merchant's snippet) and the same script at
 * its content-hashed URL /widget/fc.<hash>.js (the loader answers `Link` to it). Public, no
 * authentication; gzip when the browser accepts it; ETag revalidation.
 */
export function widgetScriptRoutes(deps: { bundle: () => Promise<WidgetBundle> }): Router {
  const router = apiRouter();

  const serve = (ctx: Context, bundle: WidgetBundle, cacheControl: string) => {
    ctx.set('Cache-Control', cacheControl);
    ctx.set('Access-Control-Allow-Origin', '*'); // lets pages use Subresource Integrity (crossorigin)
    ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.vary('Accept-Encoding');
    ctx.type = 'application/javascript; charset=utf-8';
    ctx.etag = bundle.hash;
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    if (ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
      ctx.set('Content-Encoding', 'gzip');
      ctx.body = bundle.gzipped;
    } else {
      ctx.body = bundle.code;
    }
  };

  router.get('/widget/fc.js', async (ctx) => {
    const bundle = await deps.bundle();
    ctx.set('Link', `</widget/fc.${bundle.hash}.js>; rel="canonical"`);
    serve(ctx, bundle, LOADER_CACHE_CONTROL);
  });

  router.get('/widget/fc.:hash.js', async (ctx) => {
    const bundle = await deps.bundle();
    if (ctx.params.hash !== bundle.hash) return; // an older build: 404 route_not_found
    serve(ctx, bundle, HASHED_CACHE_CONTROL);
  });
  return router;
}
