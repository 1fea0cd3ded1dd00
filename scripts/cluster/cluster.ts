import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createDb, type Db } from '../../src/db/knex';
import { migrateToLatest } from '../../src/db/migrate';
import { ensureSandboxCredentials, type SandboxCredentials } from '../../src/db/sandbox-seed';
import { SEARCH_ATTRIBUTES } from '../../src/domain/search-attributes';
import { createLogger } from '../../src/logger';
import { connectTemporalClient } from '../../src/temporal/connect';
import { registerSearchAttributes } from '../../src/temporal/search-attributes';
import { type Stoppable, stopInOrder } from '../stop-in-order';
import { ensureTemporalUiServer, requireTemporalServerTools, TEMPORAL_SERVER_VERSION } from '../tools/temporal-server';
import { ManagedProcess } from './processes';
import { BEHIND_LOCAL_PROXY, type RoundRobinProxy, startRoundRobinProxy } from './proxy';
import { postgresTarget, startTemporalCluster, waitForSearchAttribute } from './temporal-cluster';

export interface ClusterOptions {
  /** Holds postgres/, temporal/, ui/, logs/ and sandbox-credentials.json. */
  directory: string;
  /** An existing Postgres (the service's database; Temporal's two are created beside it). */
  databaseUrl?: string;
  postgresPort: number;
  /** The one port the API is served on (the proxy); its processes listen on the next ports. */
  apiPort: number;
  temporalPort: number;
  /** Web UI port; undefined: no UI. */
  uiPort?: number;
  namespace: string;
  taskQueue: string;
  workers: number;
  apis: number;
  /** Restart a process that dies (npm run start:cluster); the test restarts them itself. */
  autoRestart: boolean;
  /** Extra environment of the API and worker processes. */
  env?: NodeJS.ProcessEnv;
  logLevel?: string;
  /** Temporal dynamic config beside the low-latency settings (scripts/cluster/temporal-cluster.ts). */
  temporalDynamicConfig?: Record<string, unknown>;
  /** Trade Postgres durability for speed (throw-away test clusters). */
  unsafeFastPostgres?: boolean;
  say?: (line: string) => void;
  /** Receives the stop function at once, so a signal during start-up can stop what started. */
  onStoppable?: (stop: () => Promise<void>) => void;
}

export interface ClusterHandle {
  apiUrl: string;
  temporalAddress: string;
  uiUrl: string | undefined;
  databaseUrl: string;
  db: Db;
  workers: ManagedProcess[];
  apis: ManagedProcess[];
  proxy: RoundRobinProxy;
  credentials: SandboxCredentials;
  credentialsFile: string;
  logDir: string;
  temporalLog: string;
  temporalConfig: string;
  /**
   * One more worker process (not started yet; the cluster stops it with the rest), with the
   * cluster's environment plus `env`: e.g. another build (WORKER_BUILD_ID, a changed source tree).
   */
  addWorker(opts: { name: string; env?: NodeJS.ProcessEnv; root?: string }): ManagedProcess;
  stop(): Promise<void>;
}

/**
 * The local cluster (docs/local-cluster.md): Postgres, the Temporal server on it (schema set up
 * by its SQL tool), the namespace and the order search attributes, the service migrations, N
 * worker processes and N API processes behind one round-robin port, the sandbox credentials and
 * the Web UI. On failure, whatever started is stopped again.
 */
export async function startCluster(opts: ClusterOptions): Promise<ClusterHandle> {
  const say = opts.say ?? (() => {});
  const stops: Stoppable[] = [];
  const stopAll = () => stopInOrder(stops, say);
  opts.onStoppable?.(stopAll);
  try {
    const logDir = path.join(opts.directory, 'logs');
    await mkdir(logDir, { recursive: true });
    const tools = await requireTemporalServerTools();

    let databaseUrl: string;
    if (opts.databaseUrl) {
      say('database: DATABASE_URL (Temporal databases created beside it)');
      databaseUrl = opts.databaseUrl;
    } else {
      say(
        `database: embedded Postgres on 127.0.0.1:${opts.postgresPort}, data in ${path.join(opts.directory, 'postgres')}`,
      );
      // Loaded only here: the package is ESM, which jest (the cluster test passes a URL) cannot require.
      const { startEmbeddedPostgres } = await import('../../src/db/embedded-postgres.js');
      const pg = await startEmbeddedPostgres({
        directory: path.join(opts.directory, 'postgres'),
        port: opts.postgresPort,
        database: 'payment_rescue',
        unsafeFast: opts.unsafeFastPostgres,
      });
      stops.push({ name: 'embedded Postgres', stop: () => pg.stop() });
      databaseUrl = pg.url;
    }

    say(`Temporal: server v${TEMPORAL_SERVER_VERSION} on Postgres, frontend 127.0.0.1:${opts.temporalPort}`);
    const temporal = await startTemporalCluster({
      serverPath: tools.server,
      postgres: { target: postgresTarget(databaseUrl), sqlToolPath: tools.sqlTool },
      directory: path.join(opts.directory, 'temporal'),
      frontendPort: opts.temporalPort,
      namespace: opts.namespace,
      dynamicConfig: opts.temporalDynamicConfig,
      say,
    });
    stops.push({ name: 'Temporal server', stop: () => temporal.stop() });
    say(`Temporal: namespace ${opts.namespace} ready (config ${temporal.configFile}, log ${temporal.logFile})`);

    const logger = createLogger({ level: opts.logLevel ?? 'warn', name: 'cluster' });
    // As `npm run migrate` connects: a connection may take over a second while the cluster's
    // processes start on a busy machine, and migrations are no requests to fail fast.
    const db = createDb(databaseUrl, 5, logger, { connectTimeoutMs: 5_000 });
    stops.push({ name: 'database pool', stop: () => db.destroy() });
    const applied = await migrateToLatest(db);
    say(`migrations: ${applied.length ? applied.join(', ') : 'up to date'}`);

    const { connection } = await connectTemporalClient(temporal.address, opts.namespace, undefined);
    try {
      const added = await registerSearchAttributes(connection, opts.namespace);
      say(`search attributes: ${added.length ? `registered ${added.join(', ')}` : 'already registered'}`);
    } finally {
      await connection.close();
    }
    // Workflows set every attribute at start: wait until the frontend's namespace cache has them.
    for (const attribute of Object.values(SEARCH_ATTRIBUTES)) {
      await waitForSearchAttribute(temporal.address, opts.namespace, attribute);
    }

    let uiUrl: string | undefined;
    if (opts.uiPort !== undefined) {
      uiUrl = await startUi(opts, temporal.address, path.join(opts.directory, 'ui'), stops, say);
    }

    const apiUrl = `http://127.0.0.1:${opts.apiPort}`;
    const credentialsFile = path.join(opts.directory, 'sandbox-credentials.json');
    const { credentials, created } = await ensureSandboxCredentials(db, credentialsFile, {
      apiBaseUrl: apiUrl,
      temporalUiUrl: uiUrl ?? '(no UI server: see docs/local-cluster.md)',
    });
    say(`sandbox credentials ${created ? 'created' : 'reused'}: ${credentialsFile}`);

    const common: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: temporal.address,
      TEMPORAL_NAMESPACE: opts.namespace,
      TEMPORAL_TASK_QUEUE: opts.taskQueue,
      ...BEHIND_LOCAL_PROXY,
      PUBLIC_BASE_URL: apiUrl,
      MIGRATE_ON_START: 'false',
      LOG_LEVEL: opts.logLevel ?? 'info',
      // The seeded operator token opens the back office unless one is given (as npm start does).
      ADMIN_API_TOKEN: process.env.ADMIN_API_TOKEN || credentials.adminToken,
      ...opts.env,
    };
    // Each process's own /metrics port, after the API processes' ports: APIs first, then workers.
    const metricsBase = opts.apiPort + 1 + opts.apis;
    const workers = Array.from(
      { length: opts.workers },
      (_, i) =>
        new ManagedProcess({
          kind: 'worker',
          name: `worker-${i + 1}`,
          env: { ...common, METRICS_PORT: String(metricsBase + opts.apis + i) },
          logFile: path.join(logDir, `worker-${i + 1}.log`),
          autoRestart: opts.autoRestart,
          say,
        }),
    );
    const backends = Array.from({ length: opts.apis }, (_, i) => opts.apiPort + 1 + i);
    const apis = backends.map(
      (port, i) =>
        new ManagedProcess({
          kind: 'api',
          name: `api-${i + 1}`,
          env: { ...common, PORT: String(port), METRICS_PORT: String(metricsBase + i) },
          logFile: path.join(logDir, `api-${i + 1}.log`),
          autoRestart: opts.autoRestart,
          say,
        }),
    );
    // Workers first (they bundle the workflows: the slow part), then the APIs, all at once.
    for (const p of [...workers, ...apis]) stops.push({ name: p.name, stop: () => p.stop() });
    say(`starting ${workers.length} worker and ${apis.length} API processes (logs in ${logDir})`);
    await Promise.all([...workers, ...apis].map((p) => p.start()));

    const proxy = await startRoundRobinProxy({
      host: '127.0.0.1',
      port: opts.apiPort,
      backends: backends.map((port) => ({ host: '127.0.0.1', port })),
    });
    stops.push({ name: 'proxy', stop: () => proxy.close() });
    say(`API: ${apiUrl} -> ${backends.map((p) => `127.0.0.1:${p}`).join(', ')} (round robin)`);
    const metricsOf = (p: ManagedProcess, i: number) => `${p.name} 127.0.0.1:${metricsBase + i}`;
    say(`metrics (/metrics, one port per process): ${[...apis, ...workers].map(metricsOf).join(', ')}`);

    return {
      apiUrl,
      temporalAddress: temporal.address,
      uiUrl,
      databaseUrl,
      db,
      workers,
      apis,
      proxy,
      credentials,
      credentialsFile,
      logDir,
      temporalLog: temporal.logFile,
      temporalConfig: temporal.configFile,
      addWorker: ({ name, env, root }) => {
        const worker = new ManagedProcess({
          kind: 'worker',
          name,
          env: { ...common, ...env },
          logFile: path.join(logDir, `${name}.log`),
          root,
          autoRestart: opts.autoRestart,
          say,
        });
        // Stopped before the workers started with the cluster (stops run last-in first).
        stops.push({ name, stop: () => worker.stop() });
        return worker;
      },
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

/** The Web UI server pointed at the cluster, when it is provisioned (npm run tools builds it). */
async function startUi(
  opts: ClusterOptions,
  temporalAddress: string,
  directory: string,
  stops: Stoppable[],
  say: (line: string) => void,
): Promise<string | undefined> {
  const uiServer = await ensureTemporalUiServer();
  if (!uiServer) {
    say(
      `Web UI: no UI server (see docs/local-cluster.md); run: temporal --address ${temporalAddress} workflow list, or build temporal-ui-server`,
    );
    return undefined;
  }
  await mkdir(path.join(directory, 'config'), { recursive: true });
  await writeFile(
    path.join(directory, 'config', 'cluster.yaml'),
    `${JSON.stringify(
      {
        temporalGrpcAddress: temporalAddress,
        host: '127.0.0.1',
        port: opts.uiPort,
        enableUi: true,
        defaultNamespace: opts.namespace,
        refreshInterval: '1m',
        cors: { allowOrigins: [`http://127.0.0.1:${opts.uiPort}`, `http://localhost:${opts.uiPort}`] },
      },
      null,
      2,
    )}\n`,
  );
  const log = createWriteStream(path.join(directory, 'ui.log'), { flags: 'a' });
  const child: ChildProcess = spawn(
    uiServer,
    ['--root', directory, '--config', 'config', '--env', 'cluster', 'start'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  stops.push({
    name: 'Web UI',
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  });
  const url = `http://127.0.0.1:${opts.uiPort}`;
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline && child.exitCode === null) {
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    ) {
      say(`Web UI: ${url} (temporal-ui-server, log ${path.join(directory, 'ui.log')})`);
      return url;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  say(`Web UI: did not answer on ${url}; see ${path.join(directory, 'ui.log')}`);
  return undefined;
}
