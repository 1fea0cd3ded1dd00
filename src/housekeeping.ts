import type { Db } from './db/knex';
import type { Logger } from './logger';

/** How long raw widget signals are kept: long past their use for scoring (30 minutes), short for privacy. */
export const SIGNAL_RETENTION_MS = 30 * 24 * 3_600_000;
const TOKEN_GRACE_MS = 24 * 3_600_000;
const BATCH = 5_000;

/**
 * Removes what has outlived its use, in bounded batches: idempotency records past their 24-hour
 * replay window, access tokens expired for a day, widget signals past their retention. Returns
 * how many rows of each went.
 */
export async function sweep(db: Db, now: Date): Promise<Record<string, number>> {
  const purge = (table: string, column: string, before: Date) =>
    db(table)
      .whereIn('ctid', db(table).select('ctid').where(column, '<', before).limit(BATCH))
      .delete();
  return {
    idempotency_keys: await purge('idempotency_keys', 'expires_at', now),
    access_tokens: await purge('access_tokens', 'expires_at', new Date(now.getTime() - TOKEN_GRACE_MS)),
    sense_signals: await purge('sense_signals', 'received_at', new Date(now.getTime() - SIGNAL_RETENTION_MS)),
  };
}

/** Runs the sweep every `intervalMs` beside a worker (several workers sweeping is harmless). */
export function startHousekeeping(deps: { db: Db; logger: Logger; intervalMs?: number }) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = sweep(deps.db, new Date())
      .then((removed) => {
        if (Object.values(removed).some((n) => n > 0)) deps.logger.info({ removed }, 'housekeeping');
      })
      .catch((err: unknown) => deps.logger.warn({ err }, 'housekeeping failed; retrying later'));
    timer = setTimeout(tick, deps.intervalMs ?? 60_000);
  };
  timer = setTimeout(tick, deps.intervalMs ?? 60_000);
  return {
    async stop(): Promise<void> {
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
