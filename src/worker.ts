// First: hooks HTTP and pg for tracing before anything loads them (a no-op when tracing is off).
import './observability/instrument';
import { NativeConnection, type Worker } from '@temporalio/worker';
import { armFaultPoints } from './activities/fault-points';
import { loadConfigOrExit } from './config';
import { createConfiguredDb } from './db/knex';
import { startHousekeeping } from './housekeeping';
import { createLogger } from './logger';
import { startMetricsServer } from './observability/http';
import { sdkMetricsAddress, sdkMetricsSource } from './observability/sdk-metrics';
import { startTracing, stopTracing } from './observability/tracing';
import { registerWebhookBacklogGauges } from './observability/webhook-backlog';
import { startWorkerHealthServer } from './observability/worker-health';
import { startOutboxRelay } from './outbox-relay';
import { stopWithParent } from './stop-with-parent';
import { connectTemporalClient, temporalConnectionSecurity } from './temporal/connect';

import {
  createWorkers,
  installTemporalLogging,
  registerSearchAttributes,
  rolesOf,
  startHeartbeatOf,
} from './worker-host';
import { prebuiltWorkflowBundle } from './workflow-bundles';

export * from './worker-host';

/** Standalone worker process (Docker, production): needs DATABASE_URL and TEMPORAL_ADDRESS. */
async function main(): Promise<void> {
  stopWithParent();
  const config = loadConfigOrExit();
  const logger = createLogger({ level: config.logLevel, name: 'worker' });
  if (!config.database.url || !config.temporal.address) {
    logger.fatal('the worker process needs DATABASE_URL and TEMPORAL_ADDRESS (npm start runs the whole stack locally)');
    process.exit(1);
  }
  try {
    // Test-only (the kill-point tests): inert unless FAULT_KILL_AT is set.
    if (armFaultPoints(process.env)) logger.warn('fault injection armed: this worker kills itself at a charge point');
  } catch (err) {
    logger.fatal({ err }, 'refusing to start');
    process.exit(1);
  }
  // Before the workers and the client are made: they take their tracing interceptors from it.
  const tracing = startTracing(config.tracing, 'payment-rescue-worker');
  // The SDK's exporter: where TEMPORAL_METRICS_BIND_ADDRESS says, or on loopback for METRICS_PORT.
  const sdkMetrics = await sdkMetricsAddress(config.temporal.metricsBindAddress, config.metrics.port);
  installTemporalLogging(logger, sdkMetrics);
  // The probes answer from the start (alive, not ready) so a slow start is not taken for a hang; on
  // HOST, as the API listens (the chart sets 0.0.0.0 so the kubelet reaches them).
  let workers: Worker[] = [];
  const healthServer =
    config.workerHealthPort === undefined
      ? undefined
      : await startWorkerHealthServer(config.host, config.workerHealthPort, () => workers);
  const security = config.temporal.security;
  await registerSearchAttributes(config.temporal.address, config.temporal.namespace, security).catch((err: unknown) =>
    logger.warn({ err }, 'could not register the order search attributes (register them on the server yourself)'),
  );
  const db = createConfiguredDb({ ...config.database, url: config.database.url }, logger);
  const connection = await NativeConnection.connect({
    address: config.temporal.address,
    ...temporalConnectionSecurity(security),
  });
  const roles = rolesOf(config.workerRole);
  const workflowBundle = prebuiltWorkflowBundle();
  workers = await createWorkers({ connection, config, db, logger, workflowBundle }, roles);
  const { connection: clientConnection, client } = await connectTemporalClient(
    config.temporal.address,
    config.temporal.namespace,
    security,
  );
  const relay = startOutboxRelay({ db, client, taskQueue: config.temporal.webhookTaskQueue, logger });
  const housekeeping = startHousekeeping({ db, logger });
  if (roles.includes('webhooks')) registerWebhookBacklogGauges(db, logger);
  // This process's series on METRICS_PORT: the activities' counters (orders, recovered amounts,
  // webhooks), the webhook backlog, the process's own, and the SDK's `temporal_*` after them.
  const metricsServer =
    config.metrics.port === undefined
      ? undefined
      : await startMetricsServer(
          '0.0.0.0', // scraped from outside its container (compose sets no HOST for the worker)
          config.metrics.port,
          config.metrics.token,
          sdkMetrics ? sdkMetricsSource(sdkMetrics) : undefined,
        );
  // Worker.run() handles SIGINT/SIGTERM itself: it stops polling, drains in-flight tasks, returns.
  logger.info(
    {
      roles,
      taskQueue: config.temporal.taskQueue,
      webhookTaskQueue: config.temporal.webhookTaskQueue,
      workflowBundle: workflowBundle ? 'prebuilt' : 'bundled at start',
      workerDeployment: config.temporal.workerDeployment ?? 'unversioned',
      metrics: config.metrics.port === undefined ? 'off' : { port: config.metrics.port, sdk: sdkMetrics ?? 'off' },
      traces: tracing ? 'otlp' : 'off',
    },
    'worker running',
  );
  const running = Promise.all(workers.map((w) => w.run()));
  // Readiness sees this process within a second; a SIGTERM drain deletes the row at once.
  const heartbeat = startHeartbeatOf({ config, db, logger }, roles, workers);
  await running.finally(() => heartbeat.stop());
  await new Promise((resolve) => (metricsServer ? metricsServer.close(resolve) : resolve(undefined)));
  healthServer?.close();
  healthServer?.closeAllConnections(); // a probe's keep-alive socket must not hold the exit
  await housekeeping.stop();
  await relay.stop();
  await clientConnection.close();
  await connection.close();
  await db.destroy();
  await stopTracing(); // sends the last batched spans
  logger.info('worker stopped');
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`worker failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
}
