import type { Db } from '../knex';

/**
 * Deletions of what has outlived its use (the schedule and the retention periods:
 * src/housekeeping.ts), each bounded to `batch` rows so a backlog never makes one long
 * transaction; the sweep runs again a minute later.
 */

/** Rows kept until an instant in one of their columns: records, tokens and widget signals. */
const EXPIRING = {
  idempotency_keys: 'expires_at',
  access_tokens: 'expires_at',
  sense_signals: 'received_at',
} as const;

export type ExpiringTable = keyof typeof EXPIRING;

/** Deletes up to `batch` rows of `table` whose instant (EXPIRING) is before `before`; answers how many went. */
export async function purgeExpired(db: Db, table: ExpiringTable, before: Date, batch: number): Promise<number> {
  // ctid: the physical row, so the bounded delete needs no key (sense_signals has none of its own).
  return db(table)
    .whereIn('ctid', db(table).select('ctid').where(EXPIRING[table], '<', before).limit(batch))
    .delete();
}

/** Deletes up to `batch` leases of API processes whose last heartbeat is before `before`. */
export async function purgeApiProcessLeases(db: Db, before: Date, batch: number): Promise<number> {
  return db('api_processes')
    .whereIn('id', db('api_processes').select('id').where('heartbeat_at', '<', before).limit(batch))
    .delete();
}
