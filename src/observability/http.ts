import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Middleware } from 'koa';
import { metricsText } from './metrics';

/** True when no token is configured, or the request carries `Authorization: Bearer <token>`. */
export function metricsAuthorized(header: string | undefined, token: string | undefined): boolean {
  if (!token) return true;
  const given = Buffer.from(header ?? '');
  const wanted = Buffer.from(`Bearer ${token}`);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/**
 * `GET /metrics` on the API's own port (when METRICS_PORT is unset). With METRICS_TOKEN set a
 * scrape needs `Authorization: Bearer <token>` (401 otherwise); without it, keep the path off the
 * public ingress (docs/deployment.md#metrics). Served before routing, so it is never rate limited.
 */
export function metricsEndpoint(token: string | undefined): Middleware {
  return async (ctx, next) => {
    if (ctx.path !== '/metrics' || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    ctx.set('cache-control', 'no-store');
    if (!metricsAuthorized(ctx.get('authorization') || undefined, token)) {
      ctx.status = 401;
      ctx.set('www-authenticate', 'Bearer realm="metrics"');
      ctx.body = { error: 'unauthorized' };
      return;
    }
    const { contentType, body } = await metricsText();
    ctx.type = contentType;
    ctx.body = body;
  };
}

/** A port of its own for `/metrics` (METRICS_PORT), never exposed with the API. */
export async function startMetricsServer(host: string, port: number, token: string | undefined): Promise<Server> {
  const server = createServer((req: IncomingMessage, res) => {
    const url = new URL(req.url ?? '/', 'http://metrics');
    if (url.pathname !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404).end();
      return;
    }
    if (!metricsAuthorized(req.headers.authorization, token)) {
      res.writeHead(401, { 'www-authenticate': 'Bearer realm="metrics"' }).end();
      return;
    }
    metricsText().then(
      ({ contentType, body }) =>
        res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' }).end(body),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
    server.listen(port, host);
  });
  return server;
}
