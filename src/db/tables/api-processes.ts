import type { Knex } from 'knex';
import type { Instant } from './columns';

/** A row of `api_processes`: the lease of one running API process (src/api/process-lease.ts). */
export interface ApiProcessRecord {
  id: string;
  host: string;
  pid: number;
  started_at: Date;
  heartbeat_at: Date;
}

export type ApiProcessInsert = Omit<ApiProcessRecord, 'started_at' | 'heartbeat_at'> & {
  started_at?: Instant;
  heartbeat_at?: Instant;
};

export type ApiProcessesTable = Knex.CompositeTableType<ApiProcessRecord, ApiProcessInsert, Partial<ApiProcessInsert>>;
