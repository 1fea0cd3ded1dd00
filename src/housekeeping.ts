import type { Db } from './db/knex';
import { purgeFullBuckets } from './db/repositories/rate-limits';
import { purgeApiProcessLeases, purgeExpired } from './db/repositories/retention';
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
  return {
    idempotency_keys: await purgeExpired(db, 'idempotency_keys', now, BATCH),
    access_tokens: await purgeExpired(db, 'access_tokens', new Date(now.getTime() - TOKEN_GRACE_MS), BATCH),
    sense_signals: await purgeExpired(db, 'sense_signals', new Date(now.getTime() - SIGNAL_RETENTION_MS), BATCH),
  };
}

/**
 * The API's own leftovers: leases of API processes gone for a day (their claims were free within
 * seconds; the row only records them) and rate-limit buckets that have refilled (a missing bucket
 * is a full one).
 */
export async function sweepEdge(db: Db, now: Date): Promise<Record<string, number>> {
  const leases = await purgeApiProcessLeases(db, new Date(now.getTime() - TOKEN_GRACE_MS), BATCH);
  return { api_processes: leases, rate_limit_buckets: await purgeFullBuckets(db, now.getTime(), BATCH) };
}

/** Runs the sweep every `intervalMs` beside a worker (several workers sweeping is harmless). */
export function startHousekeeping(deps: { db: Db; logger: Logger; intervalMs?: number }) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    const now = new Date();
    running = Promise.all([sweep(deps.db, now), sweepEdge(deps.db, now)])
      .then((both) => {
        const removed = Object.assign({}, ...both) as Record<string, number>;
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
