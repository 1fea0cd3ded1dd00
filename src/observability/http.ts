import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { metricsText } from './metrics';

/** True when no token is configured, or the request carries `Authorization: Bearer <token>`. */
export function metricsAuthorized(header: string | undefined, token: string | undefined): boolean {
  if (!token) return true;
  const given = Buffer.from(header ?? '');
  const wanted = Buffer.from(`Bearer ${token}`);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/** More exposition text served after the process's own registry (the worker's Temporal SDK series). */
export type MetricsSource = () => Promise<string>;

/**
 * `GET /metrics` on a port of its own (METRICS_PORT), never on the public API port: each process
 * (every API process, every worker process) serves its own series there, so a scrape is never
 * spread over processes by a load balancer (docs/deployment.md#metrics). With METRICS_TOKEN a
 * scrape needs `Authorization: Bearer <token>` (401 otherwise). `more` appends series kept
 * elsewhere in the process (src/observability/sdk-metrics.ts); if it fails, the process's own
 * series are still served.
 */
export async function startMetricsServer(
  host: string,
  port: number,
  token: string | undefined,
  more?: MetricsSource,
): Promise<Server> {
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
    Promise.all([metricsText(), more ? more().catch(() => '') : ''])
      .then(([{ contentType, body }, extra]) => {
        const text = extra ? `${body.endsWith('\n') ? body : `${body}\n`}${extra}` : body;
        res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' }).end(text);
      })
      .catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
    server.listen(port, host);
  });
  return server;
}
