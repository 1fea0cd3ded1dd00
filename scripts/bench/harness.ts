import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type Router from '@koa/router';
import type { Client } from '@temporalio/client';
import type { BundleOptions, WorkerOptions } from '@temporalio/worker';
import { closeServer, listen } from '../../src/api/server';
import { loadConfig } from '../../src/config';
import { startEmbeddedPostgres } from '../../src/db/embedded-postgres';
import { createDb, type Db } from '../../src/db/knex';
import { migrateToLatest } from '../../src/db/migrate';
import { createApiKey } from '../../src/db/repositories/api-keys';
import { returnedRow } from '../../src/db/returned-row';
import { SCOPES } from '../../src/domain/scopes';
import { generateSecret, hashSecret } from '../../src/domain/secrets';
import { createLogger } from '../../src/logger';
import { connectTemporalClient } from '../../src/temporal/connect';
import { registerSearchAttributes } from '../../src/temporal/search-attributes';
import { installTemporalLogging, startWorkerWithRelay } from '../../src/worker';
import { bundleWorkflows } from '../../src/workflow-bundles';
import { freeFrontendPort, freePort } from '../cluster/free-ports';
import { ManagedProcess } from '../cluster/processes';
import { startTemporalCluster } from '../cluster/temporal-cluster';
import { ensureTemporalCli } from '../tools/temporal-cli';
import { startTemporalDevServer } from '../tools/temporal-dev-server';
import { ensureTemporalServer, TEMPORAL_SERVER_VERSION } from '../tools/temporal-server';
import { say } from './say';

/**
 * What every benchmark shares: a throw-away local stack (embedded Postgres with durable settings,
 * in-memory Temporal dev server, one worker with the outbox relay, the API), all on 127.0.0.1;
 * seeding; and an orderly stop of everything it started, on failure and on Ctrl-C too.
 */

export const HOST = '127.0.0.1';
export { say };

const stops: Array<{ name: string; stop: () => Promise<unknown> }> = [];
const interruptHooks: Array<() => void> = [];

/** Something to stop when the benchmark ends, in reverse order of registration. */
export function registerStop(name: string, stop: () => Promise<unknown>): void {
  stops.push({ name, stop });
}

/** Called on the first Ctrl-C (for example to stop a load run at once). */
export function onInterrupt(hook: () => void): void {
  interruptHooks.push(hook);
}

export function machineLine(): string {
  return `machine: ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim() ?? 'unknown'}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Node ${process.version}, ${os.platform()} ${os.release()}`;
}

export interface LocalStack {
  config: ReturnType<typeof loadConfig>;
  apiUrl: string;
  apiDb: Db;
  workerDb: Db;
  pgUrl: string;
  logger: ReturnType<typeof createLogger>;
  client: Client;
  /** The SDK's worker metrics (Prometheus text): slots, task latencies, RPC latencies. */
  metricsUrl: string;
  /** With `workerProcess`: the worker's own process (its pid), as `npm start` runs it. */
  workerPid?: () => number | undefined;
}

export interface LocalStackOptions {
  /** A workflows module of the bench's own (src/workflows plus bench-only workflows). */
  workflowsPath?: string;
  /** With `workflowsPath`: a webpack hook for that bundle (bench-only module replacements). */
  webpackConfigHook?: BundleOptions['webpackConfigHook'];
  /** Bench-only activities for those workflows, on the in-process worker. */
  extraActivities?: WorkerOptions['activities'];
  /** Bench-only routes mounted after the API's own, behind its middleware. */
  extraRoutes?: (client: Client, taskQueue: string) => ReturnType<Router['routes']>;
  /**
   * Run the worker (and its outbox relay) as a process of its own, src/worker.ts as `npm start`
   * runs it, instead of in this process: the two cores are used, and its memory is its own.
   */
  workerProcess?: boolean;
  /** The API's and the in-process worker's log level (default warn). */
  logLevel?: 'warn' | 'fatal';
  /** Opens the back office with this admin credential (ADMIN_API_TOKEN). */
  adminToken?: string;
}

/**
 * BENCH_TEMPORAL=server: the local cluster's Temporal server release (scripts/tools/temporal-server.ts,
 * newer than the dev server's) with the dev server's store, SQLite in its memory, and the same
 * settings (LOW_LATENCY), for what only that release does (an accepted rescue's priority lowered).
 */
async function startTemporalServerInMemory(workDir: string, namespace: string): Promise<{ address: string }> {
  if (process.env.BENCH_TEMPORAL_CONFIG) throw new Error('BENCH_TEMPORAL_CONFIG sets the dev server only');
  const serverPath = await ensureTemporalServer();
  if (!serverPath) throw new Error('no Temporal server (run `npm run tools` or set TEMPORAL_SERVER_PATH)');
  const server = await startTemporalCluster({
    serverPath,
    postgres: undefined,
    directory: path.join(workDir, 'temporal'),
    frontendPort: await freeFrontendPort(),
    namespace,
  });
  stops.push({ name: `Temporal server v${TEMPORAL_SERVER_VERSION}`, stop: () => server.stop() });
  say(`Temporal: server v${TEMPORAL_SERVER_VERSION}, SQLite in memory (BENCH_TEMPORAL=server)`);
  return server;
}

export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'prs-bench-'));
  stops.push({ name: 'temp directory', stop: () => rm(workDir, { recursive: true, force: true }) });
  await chmod(workDir, 0o755); // as root, Postgres runs as the postgres user and must reach its cluster

  const config = loadConfig({
    FC_ENVIRONMENT: 'sandbox',
    HOST,
    LOG_LEVEL: options.logLevel ?? 'warn',
    DATABASE_POOL_MAX: process.env.DATABASE_POOL_MAX,
    // A short token life shows a long bench's renewal in minutes (bench:open-rescues).
    ACCESS_TOKEN_TTL_SECONDS: process.env.ACCESS_TOKEN_TTL_SECONDS,
    // =false: accepted rescues keep their priority (the comparison for BENCH_TEMPORAL=server).
    LOWER_ACCEPTED_RESCUE_PRIORITY: process.env.LOWER_ACCEPTED_RESCUE_PRIORITY,
    TEMPORAL_TASK_QUEUE: `bench-${randomUUID()}`,
    // The benchmark measures the service, not the per-merchant limiter: the schema's maximum.
    RATE_LIMIT_BURST: '100000',
    RATE_LIMIT_PER_SECOND: '100000',
    ADMIN_API_TOKEN: options.adminToken,
  });
  const logger = createLogger({ level: config.logLevel, name: 'bench' });

  say('starting embedded Postgres and the Temporal dev server');
  // allSettled, not all: when one fails, the other must be registered for stopping before we unwind.
  const [pgStarted, temporalStarted] = await Promise.allSettled([
    (async () => {
      const directory = path.join(workDir, 'postgres');
      const pg = await startEmbeddedPostgres({
        directory,
        port: await freePort(),
        database: 'payment_rescue',
        unsafeFast: false, // fsync and synchronous commit on: the numbers include real commits
      });
      stops.push({ name: 'embedded Postgres', stop: () => pg.stop() }); // safe when Ctrl-C already stopped it
      return pg;
    })(),
    (async () => {
      if (process.env.BENCH_TEMPORAL === 'server')
        return startTemporalServerInMemory(workDir, config.temporal.namespace);
      const cliPath = await ensureTemporalCli();
      if (!cliPath) throw new Error('no Temporal CLI (run `npm run tools` or set TEMPORAL_CLI_PATH)');
      const server = await startTemporalDevServer({
        cliPath,
        port: await freePort(),
        namespace: config.temporal.namespace,
        logFile: path.join(workDir, 'temporal.log'),
        // BENCH_TEMPORAL_SQLITE_FILE=1 keeps Temporal's state in a SQLite file, not in the server's memory.
        dbFile: process.env.BENCH_TEMPORAL_SQLITE_FILE ? path.join(workDir, 'temporal.sqlite') : undefined,
        // BENCH_TEMPORAL_CONFIG='key=value;key=value' tries dev server settings without a code change.
        dynamicConfig: process.env.BENCH_TEMPORAL_CONFIG?.split(';').filter(Boolean),
      });
      stops.push({ name: 'Temporal dev server', stop: () => server.stop() });
      return server;
    })(),
  ]);
  if (pgStarted.status === 'rejected') throw pgStarted.reason;
  if (temporalStarted.status === 'rejected') throw temporalStarted.reason;
  const [pg, temporal] = [pgStarted.value, temporalStarted.value];
  checkInterrupted();

  // Two pools, as in production where the API and the worker are separate processes.
  const apiDb = createDb(pg.url, config.database.poolMax, logger);
  const workerDb = createDb(pg.url, config.database.poolMax, logger);
  stops.push({ name: 'database pools', stop: () => Promise.all([apiDb.destroy(), workerDb.destroy()]) });
  await migrateToLatest(apiDb);

  const { connection, client } = await connectTemporalClient(temporal.address, config.temporal.namespace);
  stops.push({ name: 'Temporal client', stop: () => connection.close() });
  await registerSearchAttributes(connection, config.temporal.namespace);

  const metricsPort = await freePort();
  if (options.workerProcess) {
    say('worker: starting its process (src/worker.ts)');
    const worker = await startWorkerProcess(workDir, pg.url, temporal.address, config, apiDb);
    stops.push({ name: 'worker process', stop: () => worker.stop() });
    const api = await listen({ config, db: apiDb, temporal: connection, temporalClient: client, logger }, HOST, 0);
    stops.push({ name: 'API', stop: () => closeServer(api) });
    checkInterrupted();
    return {
      config,
      apiDb,
      workerDb,
      pgUrl: pg.url,
      logger,
      client,
      apiUrl: `http://${HOST}:${portOf(api)}`,
      metricsUrl: `http://${HOST}:${metricsPort}/metrics`, // not served: the worker process has its own
      workerPid: () => worker.pid,
    };
  }
  say('worker: bundling workflows and starting');
  installTemporalLogging(logger, `${HOST}:${metricsPort}`);
  // The outbox relay runs beside the worker (as in `npm start`): its event polling is part of the load.
  const worker = await startWorkerWithRelay({
    address: temporal.address,
    client,
    config: { ...config, environment: 'sandbox' },
    db: workerDb,
    logger,
    ...(options.workflowsPath
      ? {
          // Bundled as the worker bundles its own: tracing's interceptors only when on.
          workflowBundle: await bundleWorkflows(undefined, {
            workflowsPath: options.workflowsPath,
            ...(options.webpackConfigHook ? { webpackConfigHook: options.webpackConfigHook } : {}),
          }),
        }
      : {}),
    ...(options.extraActivities ? { extraActivities: options.extraActivities } : {}),
    // BENCH_WORKER_TUNING='{"maxCachedWorkflows":500}' tries worker settings without a code change.
    ...(process.env.BENCH_WORKER_TUNING ? { tuning: JSON.parse(process.env.BENCH_WORKER_TUNING) } : {}),
  });
  stops.push({ name: 'worker', stop: () => worker.stop() });

  const deps = { config, db: apiDb, temporal: connection, temporalClient: client, logger };
  // An ephemeral port: never collides with a running `npm start`.
  const extra = options.extraRoutes?.(client, config.temporal.taskQueue);
  const api = await listen(deps, HOST, 0, undefined, extra);
  stops.push({ name: 'API', stop: () => closeServer(api) });
  const apiUrl = `http://${HOST}:${portOf(api)}`;
  checkInterrupted();

  return {
    config,
    apiUrl,
    apiDb,
    workerDb,
    pgUrl: pg.url,
    logger,
    client,
    metricsUrl: `http://${HOST}:${metricsPort}/metrics`,
  };
}

/** src/worker.ts in a process of its own, on this stack (started once its heartbeat row is there). */
async function startWorkerProcess(
  workDir: string,
  databaseUrl: string,
  temporalAddress: string,
  config: LocalStack['config'],
  db: Db,
): Promise<ManagedProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    FC_ENVIRONMENT: 'sandbox',
    LOG_LEVEL: 'warn',
    DATABASE_URL: databaseUrl,
    MIGRATE_ON_START: 'false',
    TEMPORAL_ADDRESS: temporalAddress,
    TEMPORAL_NAMESPACE: config.temporal.namespace,
    TEMPORAL_TASK_QUEUE: config.temporal.taskQueue,
  };
  for (const name of Object.keys(env)) if (/^(TEMPORAL_(TLS|API_KEY|METRICS)|METRICS_)/.test(name)) delete env[name];
  const worker = new ManagedProcess({
    kind: 'worker',
    name: 'bench-worker',
    env,
    logFile: path.join(workDir, 'worker.log'),
    ready: async (pid) => Boolean(await db('worker_heartbeats').where({ pid }).first('id')),
  });
  await worker.start();
  return worker;
}

/** A partner, merchant and tokenization key (as onboarding would), a merchant API key, its bearer token. */
export async function seedMerchant(
  db: Db,
  apiUrl: string,
): Promise<{ mid: string; bearer: string; tokenizationKey: string; newBearer: () => Promise<string> }> {
  const partner = returnedRow(await db('partners').insert({ name: 'Bench Partner' }).returning('id'), 'partners');
  const merchant = returnedRow(
    await db('merchants').insert({ partner_id: partner.id, name: 'Bench Merchant' }).returning('id'),
    'merchants',
  );
  const tokenizationKey = generateSecret('tk_sandbox');
  await db('tokenization_keys').insert({ merchant_id: merchant.id, key_hash: hashSecret(tokenizationKey) });
  const { row, secret } = await createApiKey(db, {
    ownerType: 'merchant',
    partnerId: partner.id,
    merchantId: merchant.id,
    name: 'bench key',
    scopes: [...SCOPES],
    environment: 'sandbox',
  });
  // A bearer token lives an hour: a longer bench asks for a new one, as a merchant's client does.
  const newBearer = async () => {
    const res = await post(
      `${apiUrl}/v1/oauth2/token`,
      {},
      { grant_type: 'client_credentials', client_id: row.id, client_secret: secret },
    );
    if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${JSON.stringify(res.body)}`);
    return String(res.body.access_token);
  };
  return { mid: String(merchant.id), bearer: await newBearer(), tokenizationKey, newBearer };
}

/** Sandbox cards (docs/sandbox.md): one approves, one declines (insufficient funds) on every attempt. */
export const SANDBOX_CARDS = { approves: '4111111111111111', declinesAlways: '4000000000009995' } as const;

/** Tokenizes a card (expiring next year) as the merchant's checkout page would; returns its token. */
export async function tokenizeCard(apiUrl: string, tokenizationKey: string, cardNumber: string): Promise<string> {
  const res = await post(
    `${apiUrl}/v1/tokenize`,
    { 'x-tokenization-key': tokenizationKey },
    { cardNumber, expiryMonth: 12, expiryYear: new Date().getUTCFullYear() + 1 },
  );
  if (res.status !== 201 || typeof res.body.token !== 'string') {
    throw new Error(`tokenize failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return res.body.token;
}

export async function post(
  url: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

export function portOf(server: Server): number {
  return (server.address() as net.AddressInfo).port;
}

export function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

/** Stops everything in reverse order of start, once; each step bounded so a stuck one cannot hang the exit. */
let stopping: Promise<void> | undefined;
function stopAll(): Promise<void> {
  stopping ??= (async () => {
    for (let next = stops.pop(); next; next = stops.pop()) {
      const { name, stop } = next;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timed out after 20 s')), 20_000);
      });
      await Promise.race([stop(), timeout])
        .catch((err: unknown) => say(`stopping ${name}: ${err instanceof Error ? err.message : String(err)}`))
        .finally(() => clearTimeout(timer));
    }
  })();
  return stopping;
}

// A signal ends the current step (a load run stops at once; a start-up step finishes, so whatever
// it started is known and stopped), then main unwinds through stopAll. A second signal forces it.
let interrupted = false;
/** Whether Ctrl-C was pressed: long waits end early. */
export function isInterrupted(): boolean {
  return interrupted;
}

export function checkInterrupted(): void {
  if (interrupted) throw new Error('interrupted');
}

// embedded-postgres installs an exit hook that stops Postgres and exits at once on a signal,
// racing the orderly shutdown (worker drain, API close): this script owns the signals. Only the
// visible listeners go: the tsx CLI's own (hidden from process.listeners) tells its parent that
// the signal arrived; without it the parent SIGKILLs this process 30 ms later, leaving no cleanup.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  for (const listener of process.listeners(signal)) process.off(signal, listener);
  process.on(signal, () => {
    if (interrupted) {
      say(`${signal} again: stopping now`);
      void stopAll().then(() => process.exit(130));
      return;
    }
    interrupted = true;
    say(`${signal}: stopping after the current step`);
    for (const hook of interruptHooks) hook(); // a load run stops at once
  });
}

/** Runs a benchmark's main, then stops everything; exit code 0, 1 (failure) or 130 (interrupted). */
export function runBench(main: () => Promise<void>): void {
  main().then(
    async () => {
      await stopAll();
      process.exit(0);
    },
    async (err: unknown) => {
      if (!interrupted) {
        process.stderr.write(`[bench] failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      }
      await stopAll();
      process.exit(interrupted ? 130 : 1);
    },
  );
}

/** The p-th percentile (nearest rank) of `values`: percentiles(xs)(99). */
export function percentiles(values: number[]): (p: number) => number {
  const sorted = [...values].sort((a, b) => a - b);
  return (p) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/** A comma-separated list of positive integers from the environment, e.g. BENCH_CONNECTIONS=1,10. */
export function commaList(name: string, fallback: number[]): number[] {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const values = raw.split(',').map((v) => Number(v.trim()));
  if (!values.every((v) => Number.isInteger(v) && v > 0)) {
    throw new Error(`${name} must be positive integers separated by commas, got "${raw}"`);
  }
  return values;
}
