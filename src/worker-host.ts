/**
 * How a worker process is put together: the order and webhook workers, their outbox relay and
 * housekeeping, the SDK's logging and metrics. Used by the standalone worker (src/worker.ts),
 * `npm start`, the cluster launcher, the benchmarks and the tests.
 */
import type { Client } from '@temporalio/client';
import {
  DefaultLogger,
  makeTelemetryFilterString,
  NativeConnection,
  Runtime,
  Worker,
  type WorkerOptions,
} from '@temporalio/worker';
import { type ActivityConfig, activitiesFor } from './activities';
import type { Config, TemporalSecurity } from './config';
import { DEFAULT_WORKFLOW_CACHE_SIZE } from './config/temporal';
import type { Db } from './db/knex';
import { startHousekeeping } from './housekeeping';
import type { Logger } from './logger';
import { workerTracingOptions, workflowInterceptorModules } from './observability/temporal-tracing';
import { startWorkerHeartbeat, type WorkerHeartbeat } from './observability/worker-heartbeat';
import { startOutboxRelay } from './outbox-relay';
import { connectTemporalClient, temporalConnectionSecurity } from './temporal/connect';
import { registerSearchAttributes as register } from './temporal/search-attributes';
import { workerDeploymentOptions } from './temporal/worker-versioning';
import { bundleWorkflows } from './workflow-bundles';

export interface WorkerSetup {
  connection: NativeConnection;
  config: ActivityConfig & {
    temporal: Pick<Config['temporal'], 'namespace' | 'taskQueue' | 'webhookTaskQueue'> &
      Partial<Pick<Config['temporal'], 'workflowCacheSize' | 'workerDeployment'>>;
  };
  db: Db;
  logger: Logger;
  /** A prebuilt bundle (tests share one); otherwise the workflows are bundled from source. */
  workflowBundle?: WorkerOptions['workflowBundle'];
  /** Activities beside the service's own, for the bench-only workflows of such a bundle. */
  extraActivities?: WorkerOptions['activities'];
  /** Overrides of the worker's tuning (the benchmarks try settings with it). */
  tuning?: Pick<
    WorkerOptions,
    | 'maxCachedWorkflows'
    | 'maxConcurrentWorkflowTaskExecutions'
    | 'maxConcurrentLocalActivityExecutions'
    | 'workflowTaskPollerBehavior'
    | 'nonStickyToStickyPollRatio'
    | 'stickyQueueScheduleToStartTimeout'
  >;
}

/**
 * `orders` polls the order task queue; `webhooks` polls the webhook delivery queue with slots of
 * its own, so slow merchant endpoints never hold what orders need (docs/webhooks.md).
 */
export type WorkerRole = 'orders' | 'webhooks';

export function rolesOf(role: Config['workerRole']): WorkerRole[] {
  return role === 'all' ? ['orders', 'webhooks'] : [role];
}

/**
 * Builds one worker of the given role, with the workflows of src/workflows and the activities
 * bound to deps: one set for both roles (each queue's workflows call only their own activities).
 */
export async function createWorker(setup: WorkerSetup, role: WorkerRole = 'orders'): Promise<Worker> {
  const webhooks = role === 'webhooks';
  const tracing = workerTracingOptions();
  const deployment = workerDeploymentOptions(setup.config.temporal.workerDeployment, role);
  return Worker.create({
    connection: setup.connection,
    namespace: setup.config.temporal.namespace,
    taskQueue: webhooks ? setup.config.temporal.webhookTaskQueue : setup.config.temporal.taskQueue,
    activities: { ...activitiesFor(setup.config, setup.db, setup.logger), ...setup.extraActivities },
    // A webhook attempt is an activity: these are the webhook worker's attempt slots.
    ...(webhooks ? { maxConcurrentActivityTaskExecutions: setup.config.webhooks.workerConcurrency } : {}),
    ...(setup.workflowBundle
      ? { workflowBundle: setup.workflowBundle, interceptors: tracing.interceptors }
      : {
          workflowsPath: require.resolve('./workflows'),
          interceptors: { ...tracing.interceptors, workflowModules: workflowInterceptorModules() },
        }),
    sinks: tracing.sinks,
    maxCachedWorkflows: setup.config.temporal.workflowCacheSize ?? DEFAULT_WORKFLOW_CACHE_SIZE,
    ...(deployment ? { workerDeploymentOptions: deployment } : {}),
    ...setup.tuning,
  });
}

/**
 * This process's heartbeat row for readiness (src/observability/worker-heartbeat.ts): written while
 * every one of `workers` runs, naming the task queues of `roles`.
 */
export function startHeartbeatOf(
  setup: Omit<WorkerSetup, 'connection'>,
  roles: WorkerRole[],
  workers: Worker[],
): WorkerHeartbeat {
  const { taskQueue, webhookTaskQueue } = setup.config.temporal;
  return startWorkerHeartbeat({
    db: setup.db,
    taskQueues: roles.map((role) => (role === 'webhooks' ? webhookTaskQueue : taskQueue)),
    isRunning: () => workers.every((w) => w.getState() === 'RUNNING'),
    logger: setup.logger,
  });
}

/** The workers of the given roles, on one connection, sharing one workflow bundle. */
export async function createWorkers(setup: WorkerSetup, roles: WorkerRole[]): Promise<Worker[]> {
  const workflowBundle = setup.workflowBundle ?? (roles.length > 1 ? await bundleWorkflows() : undefined);
  const workers: Worker[] = [];
  for (const role of roles) workers.push(await createWorker({ ...setup, workflowBundle }, role));
  return workers;
}

/**
 * The running workers (both roles unless told otherwise) with the outbox relay and housekeeping,
 * as every in-process host runs them (`npm start`, the benchmarks, the API tests). `stop` stops
 * the relay, drains the workers, closes their connection.
 */
export async function startWorkerWithRelay(
  setup: Omit<WorkerSetup, 'connection'> & {
    address: string;
    /** TLS / API key for the worker's connection (config.temporal.security). */
    security?: TemporalSecurity;
    client: Client;
    relayIntervalMs?: number;
    roles?: WorkerRole[];
  },
): Promise<{ stop(): Promise<void> }> {
  const connection = await NativeConnection.connect({
    address: setup.address,
    ...temporalConnectionSecurity(setup.security),
  });
  const roles = setup.roles ?? ['orders', 'webhooks'];
  const workers = await createWorkers({ ...setup, connection }, roles);
  const running = Promise.all(workers.map((w) => w.run()));
  running.catch(() => {}); // awaited (and so reported) by stop(); never an unhandled rejection
  const heartbeat = startHeartbeatOf(setup, roles, workers);
  const relay = startOutboxRelay({
    db: setup.db,
    client: setup.client,
    taskQueue: setup.config.temporal.webhookTaskQueue,
    logger: setup.logger,
    intervalMs: setup.relayIntervalMs,
  });
  const housekeeping = startHousekeeping({ db: setup.db, logger: setup.logger });
  return {
    async stop() {
      await heartbeat.stop(); // readiness drops before the drain, not after it
      await housekeeping.stop();
      await relay.stop();
      for (const worker of workers) if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
      await connection.close();
    },
  };
}

/**
 * Routes the SDK's own logs (core and worker) through pino, at WARN and above; with
 * `metricsBindAddress` (TEMPORAL_METRICS_BIND_ADDRESS, host:port) the SDK also serves its worker
 * metrics (`temporal_*`: slots, schedule-to-start latency, polls) for Prometheus at /metrics there.
 */
export function installTemporalLogging(logger: Logger, metricsBindAddress?: string): void {
  const levels = { TRACE: 'trace', DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' } as const;
  Runtime.install({
    logger: new DefaultLogger('WARN', (entry) => {
      logger[levels[entry.level]]({ ...entry.meta, source: 'temporal' }, entry.message);
    }),
    telemetryOptions: {
      logging: { filter: makeTelemetryFilterString({ core: 'WARN' }), forward: {} },
      ...(metricsBindAddress
        ? { metrics: { prometheus: { bindAddress: metricsBindAddress, countersTotalSuffix: true, unitSuffix: true } } }
        : {}),
    },
  });
}

export async function registerSearchAttributes(
  address: string,
  namespace: string,
  security: TemporalSecurity | undefined,
): Promise<void> {
  const { connection } = await connectTemporalClient(address, namespace, security);
  try {
    await register(connection, namespace);
  } finally {
    await connection.close();
  }
}
