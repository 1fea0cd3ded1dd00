import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import pg from 'pg';
import { runLogged } from '../tools/cache';
import { LOW_LATENCY } from '../tools/temporal-dev-server';

/** Where a Postgres server is, as the Temporal server and its SQL tool need it. */
export interface PostgresTarget {
  host: string;
  port: number;
  user: string;
  password: string;
}

export function postgresTarget(databaseUrl: string): PostgresTarget {
  const url = new URL(databaseUrl);
  return {
    host: url.hostname,
    port: Number(url.port || 5432),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
  };
}

/** The two databases of a Temporal cluster on SQL: its persistence and its (advanced) visibility. */
export const TEMPORAL_DATABASES = { persistence: 'temporal', visibility: 'temporal_visibility' } as const;

/**
 * Ports of the one-process cluster: the frontend on `frontendPort`, the other services' gRPC
 * ports above it, their membership (ringpop) ports 100 above those, the frontend's HTTP API and
 * the server's Prometheus metrics after them.
 */
export function clusterPorts(frontendPort: number) {
  return {
    frontend: frontendPort,
    history: frontendPort + 1,
    matching: frontendPort + 2,
    worker: frontendPort + 3,
    frontendHttp: frontendPort + 4,
    metrics: frontendPort + 5,
    membership: {
      frontend: frontendPort + 100,
      history: frontendPort + 101,
      matching: frontendPort + 102,
      worker: frontendPort + 103,
    },
  };
}

/**
 * Creates the temporal and temporal_visibility databases if missing and brings their schemas to
 * the version the SQL tool carries (it embeds the server's postgresql/v12 schemas): a fresh
 * database gets the versioning tables at 0.0, then `update-schema` applies every versioned step;
 * an existing one gets only the steps it lacks, so a newer pinned server upgrades in place.
 */
export async function setupTemporalSchema(sqlTool: string, target: PostgresTarget, logFile: string): Promise<void> {
  const base = [
    '--plugin',
    'postgres12',
    '--endpoint',
    target.host,
    '--port',
    String(target.port),
    '--user',
    target.user,
  ];
  // The password goes through the tool's environment (SQL_PASSWORD), never its command line.
  const env = { ...process.env, SQL_PASSWORD: target.password };
  for (const [kind, database] of Object.entries(TEMPORAL_DATABASES)) {
    if (!(await databaseExists(target, database))) {
      await runLogged(sqlTool, [...base, '--database', database, 'create-database'], { env, logFile });
    }
    if (!(await hasVersionTable(target, database))) {
      await runLogged(sqlTool, [...base, '--database', database, 'setup-schema', '--version', '0.0'], {
        env,
        logFile,
      });
    }
    await runLogged(
      sqlTool,
      [
        ...base,
        '--database',
        database,
        'update-schema',
        '--schema-name',
        `postgresql/v12/${kind === 'persistence' ? 'temporal' : 'visibility'}`,
      ],
      { env, logFile },
    );
  }
}

/** The schema version the SQL tool recorded in a database; undefined when it has none. */
export async function schemaVersion(target: PostgresTarget, database: string): Promise<string | undefined> {
  const client = new pg.Client({ ...target, database });
  try {
    await client.connect();
    const { rows } = await client.query<{ curr_version: string }>('SELECT curr_version FROM schema_version');
    return rows[0]?.curr_version;
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => {});
  }
}

async function databaseExists(target: PostgresTarget, database: string): Promise<boolean> {
  const client = new pg.Client({ ...target, database: 'postgres' });
  try {
    await client.connect();
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    return (rowCount ?? 0) > 0;
  } finally {
    await client.end().catch(() => {});
  }
}

async function hasVersionTable(target: PostgresTarget, database: string): Promise<boolean> {
  return (await schemaVersion(target, database)) !== undefined;
}

/**
 * The dynamic config file: the dev server's low-latency settings (LOW_LATENCY, one task-queue
 * partition and eager activities), as `key: [{ value }]` entries. JSON is YAML, so no YAML
 * library is needed.
 */
export function dynamicConfig(extra: Record<string, unknown> = {}): Record<string, Array<{ value: unknown }>> {
  const entries: Record<string, Array<{ value: unknown }>> = {};
  for (const setting of LOW_LATENCY) {
    const [key, raw] = setting.split('=') as [string, string];
    entries[key] = [{ value: JSON.parse(raw) }];
  }
  for (const [key, value] of Object.entries(extra)) entries[key] = [{ value }];
  return entries;
}

/**
 * The server's static config: Postgres (postgres12 plugin) for persistence and SQL advanced
 * visibility, the four services in one process on 127.0.0.1, a few history shards (the shard
 * count is fixed for the life of the database: 4 suits one machine; production sizes it for its
 * peak, e.g. 512+), the dynamic config file above, Prometheus metrics. With no Postgres target,
 * SQLite in the server's memory instead (the dev server's store, for benchmarks on this release).
 */
export function serverConfig(opts: {
  target: PostgresTarget | undefined;
  frontendPort: number;
  numHistoryShards: number;
  dynamicConfigFile: string;
}): Record<string, unknown> {
  const ports = clusterPorts(opts.frontendPort);
  const { target } = opts;
  const sql = (databaseName: string, maxConns: number) => ({
    sql: target
      ? {
          pluginName: 'postgres12',
          databaseName,
          connectAddr: `${target.host}:${target.port}`,
          connectProtocol: 'tcp',
          user: target.user,
          password: target.password,
          maxConns,
          maxIdleConns: maxConns,
          maxConnLifetime: '1h',
        }
      : // One connection per store: the in-memory database lives as long as it (schema set up on open).
        {
          pluginName: 'sqlite',
          databaseName,
          connectAddr: 'localhost',
          connectProtocol: 'tcp',
          connectAttributes: { mode: 'memory', cache: 'private' },
          maxConns: 1,
          maxIdleConns: 1,
          maxConnLifetime: '1h',
        },
  });
  const rpc = (grpcPort: number, membershipPort: number, extra: Record<string, unknown> = {}) => ({
    rpc: { grpcPort, membershipPort, bindOnIP: '127.0.0.1', ...extra },
  });
  return {
    log: { stdout: true, level: 'warn', format: 'json' },
    persistence: {
      defaultStore: 'postgres-default',
      visibilityStore: 'postgres-visibility',
      numHistoryShards: opts.numHistoryShards,
      datastores: {
        // Four services share the process, each with its own pools: keep them small.
        'postgres-default': sql(TEMPORAL_DATABASES.persistence, 10),
        'postgres-visibility': sql(TEMPORAL_DATABASES.visibility, 4),
      },
    },
    global: {
      membership: { maxJoinDuration: '30s', broadcastAddress: '127.0.0.1' },
      metrics: {
        prometheus: { framework: 'tally', timerType: 'histogram', listenAddress: `127.0.0.1:${ports.metrics}` },
      },
    },
    services: {
      frontend: rpc(ports.frontend, ports.membership.frontend, { httpPort: ports.frontendHttp }),
      history: rpc(ports.history, ports.membership.history),
      matching: rpc(ports.matching, ports.membership.matching),
      worker: rpc(ports.worker, ports.membership.worker),
    },
    clusterMetadata: {
      enableGlobalNamespace: false,
      failoverVersionIncrement: 10,
      masterClusterName: 'active',
      currentClusterName: 'active',
      clusterInformation: {
        active: {
          enabled: true,
          initialFailoverVersion: 1,
          rpcName: 'frontend',
          rpcAddress: `127.0.0.1:${ports.frontend}`,
          httpAddress: `127.0.0.1:${ports.frontendHttp}`,
        },
      },
    },
    dcRedirectionPolicy: { policy: 'noop' },
    dynamicConfigClient: { filepath: opts.dynamicConfigFile, pollInterval: '10s' },
  };
}

export interface TemporalClusterOptions {
  serverPath: string;
  /** Postgres and its schema tool; undefined: SQLite in the server's memory (no schema step). */
  postgres: { target: PostgresTarget; sqlToolPath: string } | undefined;
  /** Holds config/ (the generated configs) and the server's log. */
  directory: string;
  frontendPort: number;
  namespace: string;
  numHistoryShards?: number;
  /** Namespace retention (days). */
  retentionDays?: number;
  /** Dynamic config beside the low-latency settings (a test's shorter intervals). */
  dynamicConfig?: Record<string, unknown>;
  say?: (line: string) => void;
}

export interface TemporalClusterHandle {
  address: string;
  ports: ReturnType<typeof clusterPorts>;
  configFile: string;
  logFile: string;
  stop(): Promise<void>;
}

const ENV = 'cluster'; // the server reads config/<env>.yaml

/**
 * Sets up the schema, writes the configs, starts `temporal-server start` (frontend, history,
 * matching and worker in one process) and registers the namespace. Resolves once the namespace
 * answers on the frontend.
 */
export async function startTemporalCluster(opts: TemporalClusterOptions): Promise<TemporalClusterHandle> {
  const say = opts.say ?? (() => {});
  const configDir = path.join(opts.directory, 'config');
  await mkdir(configDir, { recursive: true });
  const logFile = path.join(opts.directory, 'server.log');
  const schemaLog = path.join(opts.directory, 'schema.log');

  const started = Date.now();
  const { postgres } = opts;
  if (postgres) {
    await setupTemporalSchema(postgres.sqlToolPath, postgres.target, schemaLog);
    const versions = await Promise.all(Object.values(TEMPORAL_DATABASES).map((d) => schemaVersion(postgres.target, d)));
    say(
      `Temporal schema: ${Object.values(TEMPORAL_DATABASES)
        .map((d, i) => `${d} v${versions[i]}`)
        .join(', ')} (${Date.now() - started} ms; log ${schemaLog})`,
    );
  }

  const dynamicConfigFile = path.join(configDir, 'dynamicconfig.yaml');
  await writeFile(dynamicConfigFile, `${JSON.stringify(dynamicConfig(opts.dynamicConfig), null, 2)}\n`);
  const configFile = path.join(configDir, `${ENV}.yaml`);
  // Holds the database password: readable by its owner only.
  await writeFile(
    configFile,
    `${JSON.stringify(
      serverConfig({
        target: postgres?.target,
        frontendPort: opts.frontendPort,
        numHistoryShards: opts.numHistoryShards ?? (postgres ? 4 : 1),
        dynamicConfigFile,
      }),
      null,
      2,
    )}\n`,
    { mode: 0o600 },
  );

  const log = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(
    opts.serverPath,
    ['--root', opts.directory, '--config', 'config', '--env', ENV, '--allow-no-auth', 'start'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ports = clusterPorts(opts.frontendPort);
  const address = `127.0.0.1:${ports.frontend}`;
  // The namespace registration gives up as soon as the server has exited.
  const gone = { exited: false };
  void exited.then(() => {
    gone.exited = true;
  });
  try {
    await Promise.race([
      registerNamespace(address, opts.namespace, opts.retentionDays ?? 3, 120_000, gone),
      exited.then(async () => {
        await new Promise((r) => log.end(r));
        const tail = (await readFile(logFile, 'utf8').catch(() => '')).trim().split('\n').slice(-5).join('\n');
        throw new Error(
          `the Temporal server exited at start (a port from ${opts.frontendPort} in use?); ${logFile} ends:\n${tail}`,
        );
      }),
    ]);
  } catch (err) {
    await stopChild(child, exited);
    throw err;
  }
  return { address, ports, configFile, logFile, stop: () => stopChild(child, exited) };
}

const ALREADY_EXISTS = 6;

/** Registers the namespace (once) and waits until the frontend serves it. */
async function registerNamespace(
  address: string,
  namespace: string,
  retentionDays: number,
  timeoutMs: number,
  gone: { exited: boolean },
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const giveUp = () => Date.now() > deadline || gone.exited;
  let connection: Connection | undefined;
  while (!connection) {
    try {
      connection = await Connection.connect({ address, connectTimeout: 2_000 });
      await connection.healthService.check({});
    } catch (err) {
      await connection?.close().catch(() => {});
      connection = undefined;
      if (giveUp()) throw err;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  try {
    for (;;) {
      try {
        await connection.workflowService.registerNamespace({
          namespace,
          workflowExecutionRetentionPeriod: msToTs(`${retentionDays} days`),
        });
        break;
      } catch (err) {
        if ((err as { code?: number }).code === ALREADY_EXISTS) break;
        if (giveUp()) throw err;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
    // The frontend's namespace cache refreshes every 2 s: wait until the namespace is usable.
    for (;;) {
      try {
        await connection.workflowService.listWorkflowExecutions({ namespace, pageSize: 1 });
        return;
      } catch (err) {
        if (giveUp()) throw err;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  } finally {
    await connection.close();
  }
}

/** Waits until a visibility query on `attribute` is accepted (the namespace cache has it). */
export async function waitForSearchAttribute(
  address: string,
  namespace: string,
  attribute: { name: string; type: string },
  timeoutMs = 30_000,
): Promise<void> {
  const connection = await Connection.connect({ address });
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      try {
        await connection.workflowService.listWorkflowExecutions({
          namespace,
          pageSize: 1,
          query: `${attribute.name} = ${attribute.type === 'Bool' ? 'true' : "'probe'"}`,
        });
        return;
      } catch (err) {
        if (Date.now() > deadline) throw err;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  } finally {
    await connection.close();
  }
}

/** SIGTERM (the server shuts its services down in order), then SIGKILL after 20 s. */
async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
}
