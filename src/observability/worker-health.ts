import { createServer, type Server } from 'node:http';
import type { State } from '@temporalio/worker';

/** What the probes read of each Temporal worker of the process. */
export interface WorkerProbeTarget {
  options: { taskQueue: string };
  getState(): State;
}

/** States in which a worker is of no more use: the process is about to exit, or should be restarted. */
const ENDED: ReadonlySet<State> = new Set(['FAILED', 'STOPPED']);

/**
 * The worker process's own probes on WORKER_HEALTH_PORT (docs/deployment.md#worker-probes):
 *
 * - `GET /health/live`: 200 while the process's event loop answers and none of its Temporal
 *   workers failed or stopped (starting and draining count as alive: a SIGTERM drain must not be
 *   cut short). The SDK's metrics exporter runs on threads of its own and answers through a stuck
 *   event loop, so it is no liveness signal.
 * - `GET /health/ready`: 200 while every worker polls its task queue (RUNNING); 503 while starting,
 *   draining after SIGTERM, or stopped.
 *
 * Neither asks the database or Temporal: their outage must not restart every worker at once, and
 * the SDK reconnects by itself. `workers()` is empty until the workers are created.
 */
export async function startWorkerHealthServer(
  host: string,
  port: number,
  workers: () => readonly WorkerProbeTarget[],
): Promise<Server> {
  const server = createServer((req, res) => {
    const { pathname } = new URL(req.url ?? '/', 'http://worker');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    const states = workers().map((w) => ({ taskQueue: w.options.taskQueue, state: w.getState() }));
    let ok: boolean;
    if (pathname === '/health/live') ok = !states.some((w) => ENDED.has(w.state));
    else if (pathname === '/health/ready') ok = states.length > 0 && states.every((w) => w.state === 'RUNNING');
    else {
      res.writeHead(404).end();
      return;
    }
    const body = JSON.stringify({ status: ok ? 'ok' : 'unavailable', workers: states, time: new Date().toISOString() });
    res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
    server.listen(port, host);
  });
  return server;
}
