import type { Server } from 'node:http';
import { loadConfigOrExit } from '../config';
import { createDb } from '../db/knex';
import { migrateToLatest } from '../db/migrate';
import { createLogger } from '../logger';
import { connectTemporalClient } from '../temporal/connect';
import { type AppDeps, createApp, type RescueApp } from './app';

const apps = new WeakMap<Server, RescueApp>();

/** Listens with the app; resolves once the port is bound. */
export async function listen(deps: AppDeps, host: string, port: number): Promise<Server> {
  const app = createApp(deps);
  const server = app.listen(port, host);
  server.keepAliveTimeout = 65_000; // longer than common load-balancer idle timeouts
  apps.set(server, app);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
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
  await apps.get(server)?.inFlight.drained(30_000);
}

/**
 * Standalone API process (Docker, production): needs DATABASE_URL and TEMPORAL_ADDRESS; runs
 * the migrations, then serves. `npm start` runs the whole stack instead (scripts/start.ts).
 */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger({ level: config.logLevel, name: 'api' });
  if (!config.database.url || !config.temporal.address) {
    logger.fatal('the API process needs DATABASE_URL and TEMPORAL_ADDRESS (npm start runs the whole stack locally)');
    process.exit(1);
  }
  const db = createDb(config.database.url, config.database.poolMax, logger);
  await migrateToLatest(db);
  const { connection, client } = await connectTemporalClient(config.temporal.address, config.temporal.namespace);
  const server = await listen(
    { config, db, temporal: connection, temporalClient: client, logger },
    config.host,
    config.port,
  );
  logger.info({ url: config.publicBaseUrl }, 'API listening');

  const shutdown = async (signal: string) => {
    logger.info({ signal }, 'API shutting down');
    await closeServer(server);
    await connection.close();
    await db.destroy();
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
