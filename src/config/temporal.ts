import type { WorkerDeploymentVersion } from '@temporalio/common';
import { z } from 'zod';
import { ConfigError, type EnvOf, optionalUrl, port } from './env';

/** Temporal: an external cluster (with TLS or an API key), or the dev server under DATA_DIR. */

/**
 * Workflows kept in a worker's sticky cache (SDK default: ~60% of the heap limit in workflows,
 * 2,310 with Node's default 4 GiB heap), so worker memory stays bounded however many orders wait
 * on timers (`npm run bench:open-rescues`, docs/benchmarks.md). A run evicted meanwhile is
 * replayed from its history when its timer fires or a command arrives, which costs CPU: size it
 * to the runs whose next event falls within a few minutes (docs/deployment.md).
 */
export const DEFAULT_WORKFLOW_CACHE_SIZE = 1_000;

export const temporalEnv = {
  TEMPORAL_ADDRESS: optionalUrl,
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('payment-rescue'),
  WEBHOOK_TASK_QUEUE: optionalUrl,
  TEMPORAL_DEV_SERVER_PORT: port.default(7233),
  TEMPORAL_UI_PORT: port.default(8233),
  // Below the idempotency claim's 2-minute backstop (ABANDONED_AFTER_MS), with room for the
  // follow-up check: a call still waiting must never have its claim taken over by a retry.
  WORKFLOW_CALL_DEADLINE_MS: z.coerce.number().int().min(1_000).max(90_000).default(20_000),
  WORKFLOW_CACHE_SIZE: z.coerce.number().int().min(1).max(100_000).default(DEFAULT_WORKFLOW_CACHE_SIZE),
  LOWER_ACCEPTED_RESCUE_PRIORITY: z.enum(['true', 'false']).default('true'),
  // Worker Versioning (src/temporal/worker-versioning.ts): both set, or neither (unversioned). The
  // server refuses a deployment name with '.' or ':' and either starting with '__'.
  WORKER_DEPLOYMENT_NAME: optionalUrl.pipe(
    z
      .string()
      .regex(/^(?!__)[^.:]+$/, "no '.' or ':', not starting with '__'")
      .optional(),
  ),
  WORKER_BUILD_ID: optionalUrl.pipe(
    z
      .string()
      .regex(/^(?!__)/, "not starting with '__'")
      .optional(),
  ),
  // Temporal's own environment-configuration names (docs/deployment.md, "Connecting to Temporal").
  TEMPORAL_API_KEY: optionalUrl,
  TEMPORAL_TLS: z.enum(['true', 'false']).optional(),
  TEMPORAL_TLS_CLIENT_CERT_PATH: optionalUrl,
  TEMPORAL_TLS_CLIENT_KEY_PATH: optionalUrl,
  TEMPORAL_TLS_SERVER_CA_CERT_PATH: optionalUrl,
  TEMPORAL_TLS_SERVER_NAME: optionalUrl,
  TEMPORAL_METRICS_BIND_ADDRESS: optionalUrl.pipe(
    z
      .string()
      .regex(/^[^\s:]+:\d{1,5}$/, 'must be host:port, e.g. 0.0.0.0:9464')
      .optional(),
  ),
};

export interface TemporalConfig {
  /** Undefined means "start the Temporal dev server (with its Web UI) under dataDir". */
  address: string | undefined;
  namespace: string;
  taskQueue: string;
  /** Task queue of the webhook delivery workflows (their own worker and slots). */
  webhookTaskQueue: string;
  devServerPort: number;
  uiPort: number;
  /** TLS and API-key settings for a production cluster or Temporal Cloud (src/temporal/connect.ts). */
  security: TemporalSecurity;
  /** host:port of the worker's Prometheus exporter (the SDK's metrics); unset: none. */
  metricsBindAddress: string | undefined;
  /** How long an API call waits on a workflow before answering 503 503010 (src/orders/order-client.ts). */
  callDeadlineMs: number;
  /** Runs each worker keeps in its sticky cache (DEFAULT_WORKFLOW_CACHE_SIZE). */
  workflowCacheSize: number;
  /** Whether the API lowers an accepted async MIT order's task priority (src/orders/accepted-rescues.ts). */
  lowerAcceptedRescuePriority: boolean;
  /** The worker's deployment version (Worker Versioning); undefined: an unversioned worker. */
  workerDeployment: WorkerDeploymentVersion | undefined;
}

/** How to reach a Temporal cluster that wants TLS, mTLS or an API key; all unset: plain gRPC. */
export interface TemporalSecurity {
  apiKey?: string | undefined;
  /** TEMPORAL_TLS: explicit on/off; unset: on when any TLS file or an API key is given. */
  tls?: boolean | undefined;
  clientCertPath?: string | undefined;
  clientKeyPath?: string | undefined;
  serverCaCertPath?: string | undefined;
  serverName?: string | undefined;
}

export function temporalSettings(e: EnvOf<typeof temporalEnv>): TemporalConfig {
  if (Boolean(e.TEMPORAL_TLS_CLIENT_CERT_PATH) !== Boolean(e.TEMPORAL_TLS_CLIENT_KEY_PATH)) {
    throw new ConfigError(['TEMPORAL_TLS_CLIENT_CERT_PATH and TEMPORAL_TLS_CLIENT_KEY_PATH: set both or neither']);
  }
  if (Boolean(e.WORKER_DEPLOYMENT_NAME) !== Boolean(e.WORKER_BUILD_ID)) {
    throw new ConfigError(['WORKER_DEPLOYMENT_NAME and WORKER_BUILD_ID: set both or neither']);
  }
  return {
    address: e.TEMPORAL_ADDRESS,
    namespace: e.TEMPORAL_NAMESPACE,
    taskQueue: e.TEMPORAL_TASK_QUEUE,
    webhookTaskQueue: e.WEBHOOK_TASK_QUEUE ?? `${e.TEMPORAL_TASK_QUEUE}-webhooks`,
    devServerPort: e.TEMPORAL_DEV_SERVER_PORT,
    uiPort: e.TEMPORAL_UI_PORT,
    security: {
      apiKey: e.TEMPORAL_API_KEY,
      tls: e.TEMPORAL_TLS === undefined ? undefined : e.TEMPORAL_TLS === 'true',
      clientCertPath: e.TEMPORAL_TLS_CLIENT_CERT_PATH,
      clientKeyPath: e.TEMPORAL_TLS_CLIENT_KEY_PATH,
      serverCaCertPath: e.TEMPORAL_TLS_SERVER_CA_CERT_PATH,
      serverName: e.TEMPORAL_TLS_SERVER_NAME,
    },
    metricsBindAddress: e.TEMPORAL_METRICS_BIND_ADDRESS,
    callDeadlineMs: e.WORKFLOW_CALL_DEADLINE_MS,
    workflowCacheSize: e.WORKFLOW_CACHE_SIZE,
    lowerAcceptedRescuePriority: e.LOWER_ACCEPTED_RESCUE_PRIORITY === 'true',
    workerDeployment:
      e.WORKER_DEPLOYMENT_NAME && e.WORKER_BUILD_ID
        ? { deploymentName: e.WORKER_DEPLOYMENT_NAME, buildId: e.WORKER_BUILD_ID }
        : undefined,
  };
}
