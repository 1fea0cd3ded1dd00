import type { Knex } from 'knex';
import type { Instant } from './columns';

/** A row of `worker_heartbeats`: one running worker process (src/observability/worker-heartbeat.ts). */
export interface WorkerHeartbeatRecord {
  id: string;
  host: string;
  pid: number;
  task_queues: string[];
  started_at: Date;
  /** The database's clock at the last beat. */
  last_seen: Date;
}

export type WorkerHeartbeatInsert = Omit<WorkerHeartbeatRecord, 'started_at' | 'last_seen'> & {
  started_at?: Instant;
  last_seen?: Instant;
};

export type WorkerHeartbeatsTable = Knex.CompositeTableType<
  WorkerHeartbeatRecord,
  WorkerHeartbeatInsert,
  Partial<WorkerHeartbeatInsert>
>;
