import Router from '@koa/router';
import type { Connection } from '@temporalio/client';
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

async function isTemporalReachable(connection: Connection, timeoutMs = 2_000): Promise<boolean> {
  await connection.withDeadline(Date.now() + timeoutMs, () => connection.workflowService.getSystemInfo({}));
  return true;
}

/**
 * GET /v1/health (no authentication): 200 when the database and Temporal both answer, else 503.
 * Body: { status: "ok" | "unavailable", environment, checks: { database, temporal }, time }.
 */
export function healthRoutes(deps: { db: Db; temporal: Connection; environment: Environment }): Router {
  const router = new Router();
  router.get('/v1/health', async (ctx) => {
    const [database, temporal] = await Promise.all([
      timed(() => isDatabaseReachable(deps.db)),
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
