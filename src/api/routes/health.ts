import type Router from '@koa/router';
import type { Connection } from '@temporalio/client';
import { temporal as proto } from '@temporalio/proto';
import type { Middleware } from 'koa';
import type { Environment } from '../../config';
import { type Db, isDatabaseReachable, withDeadline } from '../../db/knex';
import { hasFreshWorker } from '../../observability/worker-heartbeat';
import { SERVICE_VERSION } from '../../release';
import { apiRouter } from '../router';

type CheckStatus = 'ok' | 'down';
interface Check {
  status: CheckStatus;
  latencyMs: number;
}

async function timed(probe: () => Promise<boolean>): Promise<Check> {
  const started = Date.now();
  const ok = await probe().catch(() => false);
  return { status: ok ? 'ok' : 'down', latencyMs: Date.now() - started };
}

/** A worker of the order task queue seen by Temporal within `maxAgeMs` (DescribeTaskQueue). */
async function countLivePollers(
  connection: Connection,
  namespace: string,
  taskQueue: string,
  maxAgeMs: number,
): Promise<number> {
  const answer = await connection.withDeadline(Date.now() + PROBE_DEADLINE_MS, () =>
    connection.workflowService.describeTaskQueue({
      namespace,
      taskQueue: { name: taskQueue, kind: proto.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
      taskQueueType: proto.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
    }),
  );
  const now = Date.now();
  return (answer.pollers ?? []).filter((poller) => {
    const at = poller.lastAccessTime;
    if (!at) return false;
    const ms = Number(at.seconds ?? 0) * 1000 + Math.floor((at.nanos ?? 0) / 1e6);
    return now - ms <= maxAgeMs;
  }).length;
}

/** Each probe's deadline: a frozen Postgres or Temporal cannot hold the health check longer. */
export const PROBE_DEADLINE_MS = 2_000;

async function isTemporalReachable(connection: Connection, timeoutMs = PROBE_DEADLINE_MS): Promise<boolean> {
  await connection.withDeadline(Date.now() + timeoutMs, () => connection.workflowService.getSystemInfo({}));
  return true;
}

/**
 * GET /v1/health (no authentication): 200 when the database and Temporal both answer, else 503.
 * Body: { status: "ok" | "unavailable", environment, version, buildId, checks: { database, temporal }, time }.
 * Both probes run at once, each with a 2 s deadline that covers waiting for a pool slot and a
 * connection, so the answer comes within about 2 s whatever the dependencies do (frozen included).
 * Beside it: /v1/health/live (liveness), /v1/health/ready (an API pod's readiness: its database)
 * and /v1/health/workers (the worker fleet, for operators). Every one but liveness is rate limited
 * per client IP when given a limiter.
 */
export function healthRoutes(deps: {
  db: Db;
  temporal: Connection;
  environment: Environment;
  rateLimit?: Middleware;
  /** For /v1/health/workers: the order task queue that must have a worker polling it, and its namespace. */
  namespace?: string;
  taskQueue?: string;
  /** A poller counts when Temporal saw it within this (docs/deployment.md#probes). */
  pollerMaxAgeMs?: number;
  /** A worker process counts when its heartbeat row is younger than this (docs/deployment.md#probes). */
  heartbeatMaxAgeMs?: number;
  /** This process's build id when it runs as a versioned build (WORKER_BUILD_ID). */
  buildId?: string;
}): Router {
  const router = apiRouter();
  const limit: Middleware = deps.rateLimit ?? ((_ctx, next) => next());

  // Liveness: the process answers. No dependency is asked, so a Postgres or Temporal outage never
  // makes an orchestrator restart every API process at once; readiness takes them out of rotation.
  router.get('/v1/health/live', async (ctx) => {
    ctx.set('cache-control', 'no-store');
    ctx.body = { status: 'ok', time: new Date().toISOString() };
  });

  // Readiness: this process can answer, which takes its database. Not Temporal, not the workers:
  // they are shared by every API pod, so their outage would take every pod out of the load balancer
  // at once and merchants would get the ingress's bare error instead of the API's own JSON answer
  // (503 503010 with Retry-After for a call no worker takes up, docs/deployment.md#probes).
  router.get('/v1/health/ready', limit, async (ctx) => {
    const database = await timed(() => isDatabaseReachable(deps.db, PROBE_DEADLINE_MS));
    const ok = database.status === 'ok';
    ctx.status = ok ? 200 : 503;
    ctx.set('cache-control', 'no-store');
    ctx.body = {
      status: ok ? 'ok' : 'unavailable',
      environment: deps.environment,
      checks: { database },
      time: new Date().toISOString(),
    };
  });

  // For operators and monitors, never for an API pod's readiness: whether a worker of the order
  // task queue is live. It is when its process wrote a heartbeat row within seconds (a killed one is
  // noticed within heartbeatMaxAgeMs) and Temporal lists a poller of the queue (the worker really
  // reaches Temporal). 503 when not: evaluates then wait and answer 503 503010.
  router.get('/v1/health/workers', limit, async (ctx) => {
    const namespace = deps.namespace ?? 'default';
    const taskQueue = deps.taskQueue ?? 'payment-rescue';
    let pollers = 0;
    let heartbeat = false;
    const worker = await timed(async () => {
      const [fresh, count] = await Promise.all([
        withDeadline(hasFreshWorker(deps.db, taskQueue, deps.heartbeatMaxAgeMs ?? 4_000), PROBE_DEADLINE_MS),
        countLivePollers(deps.temporal, namespace, taskQueue, deps.pollerMaxAgeMs ?? 75_000),
      ]);
      [heartbeat, pollers] = [fresh, count];
      return heartbeat && pollers > 0;
    });
    ctx.status = worker.status === 'ok' ? 200 : 503;
    ctx.set('cache-control', 'no-store');
    ctx.body = {
      status: worker.status === 'ok' ? 'ok' : 'unavailable',
      environment: deps.environment,
      checks: { worker: { ...worker, taskQueue, pollers, heartbeat } },
      time: new Date().toISOString(),
    };
  });

  router.get('/v1/health', limit, async (ctx) => {
    const [database, temporal] = await Promise.all([
      timed(() => isDatabaseReachable(deps.db, PROBE_DEADLINE_MS)),
      timed(() => isTemporalReachable(deps.temporal)),
    ]);
    const ok = database.status === 'ok' && temporal.status === 'ok';
    ctx.status = ok ? 200 : 503;
    ctx.set('cache-control', 'no-store');
    ctx.body = {
      status: ok ? 'ok' : 'unavailable',
      environment: deps.environment,
      version: SERVICE_VERSION,
      buildId: deps.buildId ?? null,
      checks: { database, temporal },
      time: new Date().toISOString(),
    };
  });
  return router;
}
