import { createReadStream, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type Router from '@koa/router';
import type { Context } from 'koa';
import { MINOR_UNIT_EXCEPTIONS } from '../../domain/money';
import { apiRouter } from '../router';

/**
 * The merchant dashboard's static files (docs/dashboard.md): plain HTML, CSS and a script, no
 * build step, and Chart.js's UMD build from node_modules. No authentication here: the page reads
 * its link from the URL fragment and calls the JSON API with it. The policy allows this origin
 * only: no inline script or style, no other host.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

// From source (tsx, jest): src/api/routes -> src/dashboard; compiled: dist/src/api/routes -> src/dashboard
// (the image copies src/dashboard beside dist).
const ASSET_DIRS = [resolve(__dirname, '../../dashboard'), resolve(__dirname, '../../../../src/dashboard')];

function assetDir(): string {
  const found = ASSET_DIRS.find((dir) => existsSync(join(dir, 'index.html')));
  if (!found) throw new Error(`dashboard assets missing: looked in ${ASSET_DIRS.join(', ')}`);
  return found;
}

/** Chart.js's browser build (a UMD bundle that defines `Chart`), beside the package's CommonJS entry. */
function chartJsPath(): string {
  return join(dirname(require.resolve('chart.js')), 'chart.umd.min.js');
}

const FILES: Record<string, { file: () => string; type: string }> = {
  '/dashboard': { file: () => join(assetDir(), 'index.html'), type: 'text/html; charset=utf-8' },
  '/dashboard/dashboard.js': { file: () => join(assetDir(), 'dashboard.js'), type: 'text/javascript; charset=utf-8' },
  '/dashboard/dashboard.css': { file: () => join(assetDir(), 'dashboard.css'), type: 'text/css; charset=utf-8' },
  '/dashboard/chart.js': { file: chartJsPath, type: 'text/javascript; charset=utf-8' },
};

/**
 * The service's minor-unit exponents for the page's script: the browser's own currency data
 * differs from ISO 4217's (IQD has 3 decimals, HUF 2; Intl gives both none), and the amounts the
 * API answers are in the service's minor units.
 */
const CURRENCIES_SCRIPT = `window.fcMinorUnits = ${JSON.stringify(MINOR_UNIT_EXCEPTIONS)};\n`;

export function dashboardRoutes(): Router {
  const router = apiRouter();
  router.get('/dashboard/currencies.js', (ctx) => {
    assetHeaders(ctx, 'text/javascript; charset=utf-8');
    ctx.body = CURRENCIES_SCRIPT;
  });
  for (const [path, { file, type }] of Object.entries(FILES)) {
    router.get(path, async (ctx) => {
      assetHeaders(ctx, type);
      ctx.body = createReadStream(file());
    });
  }
  return router;
}

function assetHeaders(ctx: Context, type: string): void {
  ctx.type = type;
  ctx.set('content-security-policy', CONTENT_SECURITY_POLICY);
  ctx.set('x-content-type-options', 'nosniff');
  ctx.set('referrer-policy', 'no-referrer');
  ctx.set('cache-control', 'public, max-age=300');
}
