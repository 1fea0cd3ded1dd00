import type { Db } from '../knex';
import type { WorkerHeartbeatRecord } from '../tables';

/**
 * The worker processes' heartbeat rows (the rules: src/observability/worker-heartbeat.ts). Every
 * time is the database's own clock, so hosts' clocks never matter.
 */

/** Writes the process's row, its last beat now. */
export async function writeWorkerHeartbeat(
  db: Db,
  row: Pick<WorkerHeartbeatRecord, 'id' | 'host' | 'pid' | 'task_queues'>,
): Promise<void> {
  await db('worker_heartbeats')
    .insert({ ...row, last_seen: db.fn.now() })
    .onConflict('id')
    .merge(['last_seen']);
}

/** The process stopped polling: its row goes, so readiness drops at once. */
export async function deleteWorkerHeartbeat(db: Db, id: string): Promise<void> {
  await db('worker_heartbeats').where({ id }).delete();
}

/** Deletes the rows of processes that died without deleting theirs: silent for `retentionMs`. */
export async function sweepStaleWorkerHeartbeats(db: Db, retentionMs: number): Promise<void> {
  await db('worker_heartbeats')
    .where('last_seen', '<', db.raw('now() - make_interval(secs => ?)', [retentionMs / 1000]))
    .delete();
}

/** Whether a process polling `taskQueue` beat within `maxAgeMs`. */
export async function hasFreshWorkerHeartbeat(db: Db, taskQueue: string, maxAgeMs: number): Promise<boolean> {
  const row = await db('worker_heartbeats')
    .whereRaw('? = any(task_queues)', [taskQueue])
    .andWhereRaw('last_seen > now() - make_interval(secs => ?)', [maxAgeMs / 1000])
    .first('id');
  return row !== undefined;
}
