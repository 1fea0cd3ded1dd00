import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/config';
import { runUntilSignalled } from '../run-until-signalled';
import { type ClusterHandle, startCluster } from './cluster';

/**
 * `npm run start:cluster`: the service as production runs it, on one machine (docs/local-cluster.md).
 * Postgres (embedded unless DATABASE_URL), the Temporal server on Postgres with its Web UI, two
 * worker and two API processes behind one round-robin port, the sandbox credentials. A process
 * that dies is restarted. Ctrl-C or SIGTERM stops everything in reverse order.
 *
 * Its ports differ from `npm start`'s, so both can run at once: CLUSTER_API_PORT (3100; the API
 * processes take the next ports), CLUSTER_TEMPORAL_PORT (7433; the other services take the next
 * ports and +100), CLUSTER_UI_PORT (8433), CLUSTER_POSTGRES_PORT (54330); CLUSTER_WORKERS and
 * CLUSTER_APIS (2 each). State lives in $DATA_DIR/cluster.
 */

const say = (line: string) => process.stdout.write(`[cluster] ${line}\n`);

function intEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0 || n > 65535)
    throw new ConfigError([`${name}=${raw} is not a port or count (a positive integer)`]);
  return n;
}

let cluster: ClusterHandle | undefined;
let stopCluster: (() => Promise<void>) | undefined;
let stopping = false;

async function main(): Promise<void> {
  const config = loadConfig();
  const started = Date.now();
  cluster = await startCluster({
    directory: path.join(config.dataDir, 'cluster'),
    databaseUrl: config.database.url,
    postgresPort: intEnv('CLUSTER_POSTGRES_PORT', 54330),
    apiPort: intEnv('CLUSTER_API_PORT', 3100),
    temporalPort: intEnv('CLUSTER_TEMPORAL_PORT', 7433),
    uiPort: intEnv('CLUSTER_UI_PORT', 8433),
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    workers: intEnv('CLUSTER_WORKERS', 2),
    apis: intEnv('CLUSTER_APIS', 2),
    autoRestart: true,
    logLevel: config.logLevel,
    say,
    onStoppable: (stop) => {
      stopCluster = stop;
    },
  });
  if (stopping) return;
  process.stdout.write(`\n${JSON.stringify(cluster.credentials, null, 2)}\n\n`);
  say(`up in ${Math.round((Date.now() - started) / 1000)} s`);
  say(`API:         ${cluster.apiUrl}  (health: ${cluster.apiUrl}/v1/health)`);
  say(`Temporal:    ${cluster.temporalAddress}  (server log ${cluster.temporalLog})`);
  say(`Temporal UI: ${cluster.uiUrl ?? `none; temporal --address ${cluster.temporalAddress} workflow list`}`);
  for (const p of [...cluster.workers, ...cluster.apis]) say(`${p.name}: pid ${p.pid}`);
  say(`process logs: ${cluster.logDir}. Ctrl-C stops everything.`);
}

async function stopAll(code: number): Promise<never> {
  stopping = true;
  await stopCluster?.();
  say('stopped');
  process.exit(code);
}

runUntilSignalled('cluster', main, stopAll);
