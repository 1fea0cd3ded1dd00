import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { type Config, loadConfig } from '../src/config';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres';
import { createConfiguredDb } from '../src/db/knex';
import { migrateToLatest } from '../src/db/migrate';
import { ensureSandboxCredentials } from '../src/db/sandbox-seed';
import { createLogger } from '../src/logger';
import { connectTemporalClient } from '../src/temporal/connect';
import { registerSearchAttributes } from '../src/temporal/search-attributes';
import { runUntilSignalled } from './run-until-signalled';
import { startServiceProcesses } from './service-processes';
import { type Stoppable, stopInOrder } from './stop-in-order';
import { ensureTemporalCli } from './tools/temporal-cli';
import { startTemporalDevServer } from './tools/temporal-dev-server';

/**
 * `npm start`: the whole stack on one machine. Postgres (embedded unless DATABASE_URL), the
 * Temporal dev server with its Web UI (unless TEMPORAL_ADDRESS), migrations, search attributes,
 * the sandbox seed here; then, as production runs them, a worker process and API_PROCESSES API
 * processes (scripts/service-processes.ts). SIGINT/SIGTERM stop everything, children included,
 * in reverse order (scripts/run-until-signalled.ts: the stack runs in a session of its own).
 */

const stops: Stoppable[] = [];
const say = (line: string) => process.stdout.write(`[start] ${line}\n`);

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger({ level: config.logLevel, name: 'payment-rescue' });
  await mkdir(config.dataDir, { recursive: true });

  const databaseUrl = await startDatabase(config);
  const db = createConfiguredDb({ ...config.database, url: databaseUrl }, logger);
  stops.push({ name: 'database pool', stop: () => db.destroy() });
  const applied = await migrateToLatest(db);
  say(`migrations: ${applied.length ? applied.join(', ') : 'up to date'}`);

  const { address, uiUrl } = await startTemporal(config);
  // TLS / API key apply to an external cluster only; the local dev server is plain gRPC.
  const security = config.temporal.address ? config.temporal.security : undefined;
  const { connection } = await connectTemporalClient(address, config.temporal.namespace, security);
  stops.push({ name: 'Temporal client', stop: () => connection.close() });
  const added = await registerSearchAttributes(connection, config.temporal.namespace);
  say(`search attributes: ${added.length ? `registered ${added.join(', ')}` : 'already registered'}`);

  const credentialsFile = path.join(config.dataDir, 'sandbox-credentials.json');
  const { credentials, created } = await ensureSandboxCredentials(db, credentialsFile, {
    apiBaseUrl: config.publicBaseUrl,
    temporalUiUrl: uiUrl ?? '(external Temporal: see its own UI)',
  });
  // A sandbox without ADMIN_API_TOKEN opens its back office with the seeded operator token.
  const adminToken = config.adminToken ?? (config.environment === 'sandbox' ? credentials.adminToken : undefined);
  // The API listens last: a healthy API means everything above, credentials included, is in place.
  await startServiceProcesses({
    config,
    apiProcesses: config.apiProcesses,
    databaseUrl,
    temporalAddress: address,
    externalTemporal: Boolean(config.temporal.address),
    adminToken,
    db,
    stops,
    say,
  });

  say(`sandbox credentials ${created ? 'created' : 'reused'}: ${credentialsFile}`);
  process.stdout.write(`\n${JSON.stringify(credentials, null, 2)}\n\n`);
  say(`API:         ${config.publicBaseUrl}  (health: ${config.publicBaseUrl}/v1/health)`);
  if (uiUrl) say(`Temporal UI: ${uiUrl}`);
  say('logs: JSON on stdout; the Temporal dev server logs to .data/temporal/server.log. Ctrl-C stops everything.');
}

async function startDatabase(config: Config): Promise<string> {
  if (config.database.url) {
    say('database: DATABASE_URL');
    return config.database.url;
  }
  say(
    `database: embedded Postgres on 127.0.0.1:${config.database.embeddedPort}, data in ${path.join(config.dataDir, 'postgres')}`,
  );
  const pg = await startEmbeddedPostgres({
    directory: path.join(config.dataDir, 'postgres'),
    port: config.database.embeddedPort,
    database: 'payment_rescue',
  });
  stops.push({ name: 'embedded Postgres', stop: () => pg.stop() });
  return pg.url;
}

async function startTemporal(config: Config): Promise<{ address: string; uiUrl: string | undefined }> {
  if (config.temporal.address) {
    say(`Temporal: TEMPORAL_ADDRESS=${config.temporal.address}`);
    return { address: config.temporal.address, uiUrl: undefined };
  }
  const options = {
    port: config.temporal.devServerPort,
    uiPort: config.temporal.uiPort,
    namespace: config.temporal.namespace,
    dbFile: path.join(config.dataDir, 'temporal', 'temporal.db'),
  };
  const cliPath = await ensureTemporalCli();
  if (cliPath) {
    say(`Temporal: dev server on 127.0.0.1:${options.port}, Web UI on :${options.uiPort}, state in ${options.dbFile}`);
    const server = await startTemporalDevServer({
      cliPath,
      ...options,
      logFile: path.join(config.dataDir, 'temporal', 'server.log'),
    });
    stops.push({ name: 'Temporal dev server', stop: () => server.stop() });
    return { address: server.address, uiUrl: server.uiUrl };
  }
  // Last resort: the SDK downloads the CLI itself (works on the open internet only).
  say('Temporal: no CLI found or buildable; asking the SDK to download one');
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  const env = await TestWorkflowEnvironment.createLocal({
    server: { ip: '127.0.0.1', ...options, dbFilename: options.dbFile, ui: true },
  });
  stops.push({ name: 'Temporal dev server', stop: () => env.teardown() });
  return { address: env.address, uiUrl: `http://127.0.0.1:${options.uiPort}` };
}

async function stopAll(code: number): Promise<never> {
  await stopInOrder(stops, say);
  say('stopped');
  process.exit(code);
}

runUntilSignalled('start', main, stopAll);
