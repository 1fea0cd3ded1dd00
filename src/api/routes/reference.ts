import { createReadStream } from 'node:fs';
import { dirname, join } from 'node:path';
import type Router from '@koa/router';
import { ERROR_DOCS_PATH } from '../../domain/error-catalogue/doc-url';
import { errorPage } from '../error-page';
import { buildOpenApiDocument } from '../openapi/document';
import { apiRouter } from '../router';

/** Scalar's standalone bundle, from node_modules: the page loads nothing from a CDN. */
function rendererPath(): string {
  // The package's entry is dist/index.js; the browser bundle sits beside it.
  return join(dirname(require.resolve('@scalar/api-reference')), 'browser', 'standalone.js');
}

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Payment Rescue Service API reference</title>
    <link rel="icon" href="data:," />
  </head>
  <body>
    <div id="app"></div>
    <script src="/docs/reference.js"></script>
    <script>
      Scalar.createApiReference('#app', {
        url: '/v1/openapi.json',
        withDefaultFonts: false,
        hideClientButton: true,
        showDeveloperTools: 'never',
        agent: { disabled: true },
        mcp: { disabled: true },
        telemetry: false,
      });
    </script>
  </body>
</html>
`;

/**
 * GET /v1/openapi.json (the document, built once from the route registry), GET /docs (the
 * reference page, rendered by Scalar in the browser), the renderer itself, and GET /docs/errors
 * (the error catalogue, where every error's doc_url points). No authentication.
 */
export function referenceRoutes(): Router {
  const router = apiRouter();
  let document: string | undefined;
  router.get('/v1/openapi.json', async (ctx) => {
    document ??= JSON.stringify(buildOpenApiDocument());
    ctx.type = 'application/json';
    ctx.set('cache-control', 'public, max-age=300');
    ctx.body = document;
  });
  router.get('/docs', async (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.set(
      'content-security-policy',
      "default-src 'self'; script-src 'self' 'unsafe-inline' 'unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'",
    );
    ctx.body = PAGE;
  });
  let errors: string | undefined;
  router.get(ERROR_DOCS_PATH, async (ctx) => {
    errors ??= errorPage();
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'");
    ctx.set('cache-control', 'public, max-age=300');
    ctx.body = errors;
  });
  router.get('/docs/reference.js', async (ctx) => {
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.set('cache-control', 'public, max-age=3600');
    ctx.body = createReadStream(rendererPath());
  });
  return router;
}
