import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../src/config';
import type { Db } from '../src/db/knex';
import { freePort } from './cluster/free-ports';
import { ManagedProcess } from './cluster/processes';
import { BEHIND_LOCAL_PROXY, startRoundRobinProxy } from './cluster/proxy';
import type { Stoppable } from './stop-in-order';

/**
 * `npm start`'s process layout, as production runs it: one worker process (src/worker.ts) and
 * API_PROCESSES API processes (src/api/server.ts), each its own Node process so they use separate
 * cores. One API process listens on HOST:PORT itself; several listen on free local ports behind
 * the cluster's round-robin proxy on HOST:PORT. Their logs go to stdout (and $DATA_DIR/logs). A
 * process that dies is restarted, as a supervisor would.
 */

export interface ServiceProcesses {
  worker: ManagedProcess;
  apis: ManagedProcess[];
}

export async function startServiceProcesses(opts: {
  config: Config;
  apiProcesses: number;
  databaseUrl: string;
  temporalAddress: string;
  /** Whether TEMPORAL_ADDRESS is an external cluster (its TLS / API-key settings apply). */
  externalTemporal: boolean;
  adminToken: string | undefined;
  /** The launcher's pool: a worker counts as started once its heartbeat row is there. */
  db: Db;
  stops: Stoppable[];
  say: (line: string) => void;
}): Promise<ServiceProcesses> {
  const { config, say } = opts;
  const logDir = path.join(config.dataDir, 'logs');
  await mkdir(logDir, { recursive: true });
  const common: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: opts.databaseUrl,
    TEMPORAL_ADDRESS: opts.temporalAddress,
    MIGRATE_ON_START: 'false', // this launcher has run them
    PUBLIC_BASE_URL: config.publicBaseUrl,
    ...(opts.adminToken ? { ADMIN_API_TOKEN: opts.adminToken } : {}),
  };
  // The local dev server is plain gRPC: Temporal Cloud settings in the environment do not apply.
  if (!opts.externalTemporal)
    for (const name of Object.keys(common)) if (/^TEMPORAL_(TLS|API_KEY)/.test(name)) delete common[name];
  const managed = (
    kind: 'worker' | 'api',
    name: string,
    unset: string[],
    env: NodeJS.ProcessEnv,
    ready: (pid: number) => Promise<boolean>,
  ) =>
    new ManagedProcess({
      kind,
      name,
      env: Object.fromEntries(Object.entries({ ...common, ...env }).filter(([key]) => !unset.includes(key))),
      logFile: path.join(logDir, `${name}.log`),
      autoRestart: true,
      echo: true,
      say,
      ready,
    });

  // METRICS_PORT is the (first) API process's; the worker's is the next port, further APIs' after it.
  const metricsPort = process.env.METRICS_PORT ? Number(process.env.METRICS_PORT) : undefined;
  const metricsEnv = (offset: number) => (metricsPort ? { METRICS_PORT: String(metricsPort + offset) } : {});
  const worker = managed('worker', 'worker', [], metricsEnv(1), async (pid) =>
    Boolean(await opts.db('worker_heartbeats').where({ pid }).first('id')),
  );
  const single = opts.apiProcesses === 1;
  const ports = single ? [config.port] : await Promise.all(Array.from({ length: opts.apiProcesses }, freePort));
  const apis = ports.map((port, i) =>
    managed(
      'api',
      single ? 'api' : `api-${i + 1}`,
      ['TEMPORAL_METRICS_BIND_ADDRESS'], // the SDK's exporter is the worker's
      { PORT: String(port), ...(single ? {} : BEHIND_LOCAL_PROXY), ...metricsEnv(i === 0 ? 0 : i + 1) },
      async () => (await fetch(`http://127.0.0.1:${port}/v1/health/live`).catch(() => undefined))?.status === 200,
    ),
  );
  // Stopped in reverse: the APIs drain their requests first, then the worker its tasks.
  opts.stops.push({ name: 'worker process', stop: () => worker.stop() });
  for (const api of apis) opts.stops.push({ name: `${api.name} process`, stop: () => api.stop() });
  say(`worker and ${apis.length} API process${single ? '' : 'es'}: starting (logs also in ${logDir})`);
  await Promise.all([worker, ...apis].map((p) => p.start()));

  if (!single) {
    const proxy = await startRoundRobinProxy({
      host: config.host,
      port: config.port,
      backends: ports.map((port) => ({ host: '127.0.0.1', port })),
    });
    opts.stops.push({ name: 'API proxy', stop: () => proxy.close() });
    say(`API: ${config.host}:${config.port} -> ${ports.map((p) => `127.0.0.1:${p}`).join(', ')} (round robin)`);
  }
  for (const p of [worker, ...apis]) say(`${p.name}: pid ${p.pid}`);
  return { worker, apis };
}
