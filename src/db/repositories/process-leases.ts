import type { Db } from '../knex';

/**
 * API process leases (`api_processes`): each API process renews its row every second, and the
 * idempotency claims it holds name it (src/db/repositories/idempotency.ts), so the claims of a
 * process that stopped heartbeating are taken over at once.
 */

/** How often an API process renews its lease. */
export const HEARTBEAT_INTERVAL_MS = 1_000;
/** A process whose heartbeat is older than this is dead: its claims are free. */
export const LEASE_MS = 5_000;
/** A lease write that outlives a heartbeat's interval is cancelled in Postgres: the next one renews it. */
const WRITE_TIMEOUT_MS = HEARTBEAT_INTERVAL_MS;

/** Renews (or re-creates) an API process's lease. */
export async function renewProcessLease(db: Db, process: { id: string; host: string; pid: number }): Promise<void> {
  await db('api_processes')
    .insert({ id: process.id, host: process.host, pid: process.pid, heartbeat_at: db.raw('clock_timestamp()') })
    .onConflict('id')
    .merge({ heartbeat_at: db.raw('clock_timestamp()') })
    .timeout(WRITE_TIMEOUT_MS, { cancel: true });
}

/** Ends a lease at once (clean shutdown): whatever claims it still holds are free. */
export async function endProcessLease(db: Db, id: string): Promise<void> {
  await db('api_processes').where({ id }).delete().timeout(WRITE_TIMEOUT_MS, { cancel: true });
}
