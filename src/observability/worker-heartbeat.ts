import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { type Db, withDeadline } from '../db/knex';
import {
  deleteWorkerHeartbeat,
  hasFreshWorkerHeartbeat,
  sweepStaleWorkerHeartbeats,
  writeWorkerHeartbeat,
} from '../db/repositories/worker-heartbeats';
import type { Logger } from '../logger';

/**
 * Worker liveness for readiness (docs/deployment.md#probes). Temporal's poller list refreshes a
 * poller's last access time once per long poll (1 min), so a killed worker stays "seen" for a
 * minute; Temporal's own worker heartbeats (server 1.29) are a preview behind server flags. So
 * each worker process writes its own row every second, on the database's clock, while its workers
 * run, and deletes it when they stop; readiness asks for a row younger than a few seconds.
 */

/** How often a running worker process refreshes its row. */
export const WORKER_HEARTBEAT_INTERVAL_MS = 1_000;

/** Each write's deadline: a frozen database cannot hold a beat (or the stop) longer. */
const WRITE_DEADLINE_MS = 2_000;

/** Rows of processes that died without deleting theirs are swept after this. */
const STALE_ROW_RETENTION_MS = 3_600_000;

export interface WorkerHeartbeat {
  stop(): Promise<void>;
}

/**
 * Writes this process's heartbeat every second while `isRunning()` says its workers poll; once they
 * no longer do (draining after SIGTERM, failed), the row is deleted, so readiness drops at once.
 */
export function startWorkerHeartbeat(opts: {
  db: Db;
  taskQueues: string[];
  isRunning: () => boolean;
  logger: Logger;
  intervalMs?: number;
}): WorkerHeartbeat {
  const id = randomUUID();
  const row = { id, host: os.hostname(), pid: process.pid, task_queues: opts.taskQueues };
  let timer: NodeJS.Timeout | undefined;
  let beating: Promise<unknown> = Promise.resolve();
  let stopped = false;
  let failing = false;

  const remove = () => withDeadline(deleteWorkerHeartbeat(opts.db, id), WRITE_DEADLINE_MS);
  const beat = async () => {
    try {
      if (!opts.isRunning()) {
        await remove();
        return;
      }
      await withDeadline(writeWorkerHeartbeat(opts.db, row), WRITE_DEADLINE_MS);
      if (failing) opts.logger.info('worker heartbeat written again');
      failing = false;
    } catch (err) {
      // The database is down: readiness is down anyway. Logged once per outage, not every second.
      if (!failing) opts.logger.warn({ err }, 'worker heartbeat not written');
      failing = true;
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      beating = beat().finally(schedule);
    }, opts.intervalMs ?? WORKER_HEARTBEAT_INTERVAL_MS);
  };
  beating = withDeadline(sweepStaleWorkerHeartbeats(opts.db, STALE_ROW_RETENTION_MS), WRITE_DEADLINE_MS)
    .catch(() => {})
    .then(beat)
    .finally(schedule);

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await beating.catch(() => {});
      await remove().catch((err: unknown) => opts.logger.warn({ err }, 'worker heartbeat row not deleted'));
    },
  };
}

/** Whether a worker process polling `taskQueue` wrote its heartbeat within `maxAgeMs` (database clock). */
export async function hasFreshWorker(db: Db, taskQueue: string, maxAgeMs: number): Promise<boolean> {
  return hasFreshWorkerHeartbeat(db, taskQueue, maxAgeMs);
}
