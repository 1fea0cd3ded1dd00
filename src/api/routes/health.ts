import Router from '@koa/router';
import type { Connection } from '@temporalio/client';
import type { Middleware } from 'koa';
import type { Environment } from '../../config';
import { type Db, isDatabaseReachable } from '../../db/knex';

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

/** Each probe's deadline: a frozen Postgres or Temporal cannot hold the health check longer. */
export const PROBE_DEADLINE_MS = 2_000;

async function isTemporalReachable(connection: Connection, timeoutMs = PROBE_DEADLINE_MS): Promise<boolean> {
  await connection.withDeadline(Date.now() + timeoutMs, () => connection.workflowService.getSystemInfo({}));
  return true;
}

/**
 * GET /v1/health (no authentication): 200 when the database and Temporal both answer, else 503.
 * Body: { status: "ok" | "unavailable", environment, checks: { database, temporal }, time }.
 * Both probes run at once, each with a 2 s deadline that covers waiting for a pool slot and a
 * connection, so the answer comes within about 2 s whatever the dependencies do (frozen included).
 * Rate limited per client IP when given a limiter.
 */
export function healthRoutes(deps: {
  db: Db;
  temporal: Connection;
  environment: Environment;
  rateLimit?: Middleware;
}): Router {
  const router = new Router();
  const limit: Middleware = deps.rateLimit ?? ((_ctx, next) => next());
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
      checks: { database, temporal },
      time: new Date().toISOString(),
    };
  });
  return router;
}
