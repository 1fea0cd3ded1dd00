// First: hooks HTTP and pg for tracing before anything loads them (a no-op when tracing is off).
import '../observability/instrument';
import { createServer, type Server } from 'node:http';
import type Router from '@koa/router';
import { type Config, loadConfig, loadConfigOrExit } from '../config';
import { CacheNotifications } from '../db/cache-notifications';
import { createConfiguredDb } from '../db/knex';
import { migrateToLatest } from '../db/migrate';
import { createLogger } from '../logger';
import { startMetricsServer } from '../observability/http';
import { startTracing, stopTracing } from '../observability/tracing';
import { stopWithParent } from '../stop-with-parent';
import { connectTemporalClient } from '../temporal/connect';
import { type AppDeps, createApp, type RescueApp } from './app';
import { limitConnectionsPerAddress } from './connection-limit';
import { attachLease, ProcessLease } from './process-lease';

const apps = new WeakMap<Server, { app: RescueApp; lease: ProcessLease; notifications: CacheNotifications }>();

export type HttpSettings = Config['http'];

/** How often Node looks for connections past their header or request deadline (its default: 30 s). */
const CONNECTIONS_CHECKING_INTERVAL_MS = 1_000;

/**
 * Listens with the app; resolves once the port is bound. The server is hardened against slow
 * clients: the whole request (headers and body) must arrive within `requestTimeoutMs`, the headers
 * within `headersTimeoutMs` (408 and close; both checked every second rather than Node's default
 * 30 s, so a stalled socket goes at its deadline); idle keep-alive connections close after
 * `keepAliveTimeoutMs`; at most `maxConnectionsPerAddress` are open from one client address and
 * `maxConnections` in all (docs/deployment.md#connections). The app gets its process lease (idempotency claims,
 * docs/idempotency.md), renewed in the background: listening never waits for the database.
 * `extraRoutes` are mounted after the app's own (the benchmarks' floor routes).
 */
export async function listen(
  deps: AppDeps,
  host: string,
  port: number,
  http: HttpSettings = loadConfig({}).http,
  extraRoutes?: ReturnType<Router['routes']>,
): Promise<Server> {
  // Its caches (tokens, settings) hear every change through their own LISTEN connection.
  const notifications = CacheNotifications.forDb(deps.db, deps.logger, deps.config.database?.listenUrl).start();
  const app = createApp({ ...deps, cacheNotifications: notifications });
  if (extraRoutes) app.use(extraRoutes);
  const lease = new ProcessLease(deps.db, deps.logger).start();
  attachLease(app, lease);
  const server = createServer(
    {
      requestTimeout: http.requestTimeoutMs,
      headersTimeout: http.headersTimeoutMs,
      keepAliveTimeout: http.keepAliveTimeoutMs,
      connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL_MS,
    },
    app.callback(),
  );
  server.maxConnections = http.maxConnections;
  limitConnectionsPerAddress(server, http.maxConnectionsPerAddress);
  apps.set(server, { app, lease, notifications });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
    server.listen(port, host);
  }).catch(async (err: unknown) => {
    await Promise.all([lease.stop(), notifications.stop()]);
    throw err;
  });
  return server;
}

/**
 * Stops accepting connections, waits for open ones (idle keep-alives are closed), then for any
 * handler still running after its client hung up (at most 30 s), so what they use stays open.
 */
export async function closeServer(server: Server): Promise<void> {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
  const served = apps.get(server);
  await served?.app.inFlight.drained(30_000);
  await served?.lease.stop();
  await served?.notifications.stop();
}

/**
 * Standalone API process (Docker, production): needs DATABASE_URL and TEMPORAL_ADDRESS. The
 * migrations are a deploy step of their own (`npm run migrate`, the image's
 * `node dist/scripts/migrate.js`, the Helm hook); MIGRATE_ON_START=true runs them here too.
 * `npm start` runs the whole stack instead (scripts/start.ts).
 */
async function main(): Promise<void> {
  stopWithParent();
  const config = loadConfigOrExit();
  const logger = createLogger({ level: config.logLevel, name: 'api' });
  if (!config.database.url || !config.temporal.address) {
    logger.fatal('the API process needs DATABASE_URL and TEMPORAL_ADDRESS (npm start runs the whole stack locally)');
    process.exit(1);
  }
  // Before the Temporal client is made: its interceptors carry the request's trace into Temporal.
  const tracing = startTracing(config.tracing, 'payment-rescue-api');
  const db = createConfiguredDb({ ...config.database, url: config.database.url }, logger);
  if (config.migrateOnStart) {
    const applied = await migrateToLatest(db);
    logger.info({ applied }, 'migrations applied (MIGRATE_ON_START)');
  }
  const { connection, client } = await connectTemporalClient(
    config.temporal.address,
    config.temporal.namespace,
    config.temporal.security,
  );
  const metricsServer =
    config.metrics.port === undefined
      ? undefined
      : await startMetricsServer(config.host, config.metrics.port, config.metrics.token);
  const server = await listen(
    { config, db, temporal: connection, temporalClient: client, logger },
    config.host,
    config.port,
    config.http,
  );
  logger.info(
    { url: config.publicBaseUrl, metrics: config.metrics.port ?? 'off', traces: tracing ? 'otlp' : 'off' },
    'API listening',
  );

  const shutdown = async (signal: string) => {
    logger.info({ signal }, 'API shutting down');
    await closeServer(server);
    metricsServer?.close();
    await connection.close();
    await db.destroy();
    await stopTracing(); // sends the last batched spans
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`API failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
}
