import type { Db } from '../knex';

/** What a shared bucket answered: whether the request may go, and the tokens left after it. */
export interface SharedBucketState {
  allowed: boolean;
  tokens: number;
}

// The bucket refilled up to now (the app's clock, passed in: a clock behind the row counts as 0).
const REFILLED = `least(excluded.burst, b.tokens + greatest(0, excluded.updated_ms - b.updated_ms) / 1000.0 * excluded.rate_per_second)`;

/** One token to take from a shared bucket (a missing bucket is full). */
export interface BucketTake {
  key: string;
  burst: number;
  ratePerSecond: number;
  nowMs: number;
}

/**
 * How long a taker waits for a bucket's row lock. Past it the bucket is a queue, not a limit (one
 * merchant's requests lined up behind a slow holder): the statement fails with
 * `bucketLockTimedOut` and the caller decides with its own process's buckets.
 */
export const BUCKET_LOCK_WAIT_MS = 250;

/**
 * The upsert that takes one token from a bucket (`rate_limit_buckets`), as SQL and bindings, for
 * this file and for statements that take a token beside their own work (the idempotency claim).
 * The row lock of the upsert serialises concurrent takers across every API process; the wait for
 * it is bounded by `lock_timeout`, set local to the statement's own transaction before the upsert
 * (its rows come from that select), so nothing else on the connection keeps the bound.
 */
export function takeTokenSql(bucket: BucketTake): { sql: string; bindings: Array<string | number> } {
  return {
    sql: `insert into rate_limit_buckets as b (key, tokens, burst, rate_per_second, updated_ms, allowed)
       select ?, ?::double precision, ?::double precision, ?::double precision, ?::bigint, true
         from (select set_config('lock_timeout', ?, true)) as lock_wait_bound
       on conflict (key) do update set
         tokens = case when ${REFILLED} >= 1 then ${REFILLED} - 1 else ${REFILLED} end,
         allowed = ${REFILLED} >= 1,
         burst = excluded.burst,
         rate_per_second = excluded.rate_per_second,
         updated_ms = greatest(b.updated_ms, excluded.updated_ms)
       returning tokens, allowed`,
    bindings: [
      bucket.key,
      bucket.burst - 1,
      bucket.burst,
      bucket.ratePerSecond,
      Math.round(bucket.nowMs),
      `${BUCKET_LOCK_WAIT_MS}ms`,
    ],
  };
}

/** Whether a statement taking a token failed because the bucket's row stayed locked past BUCKET_LOCK_WAIT_MS. */
export function bucketLockTimedOut(err: unknown): boolean {
  // SQLSTATE 55P03 lock_not_available: what lock_timeout raises.
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '55P03';
}

/** Takes one token from the bucket `key`, in one atomic statement. */
export async function takeSharedToken(db: Db, bucket: BucketTake, timeoutMs: number): Promise<SharedBucketState> {
  const { sql, bindings } = takeTokenSql(bucket);
  const result = await db.raw(sql, bindings).timeout(timeoutMs, { cancel: true });
  const row = (result as { rows: Array<{ tokens: number; allowed: boolean }> }).rows[0];
  if (!row) throw new Error('rate limit bucket not returned');
  return { allowed: row.allowed, tokens: row.tokens };
}

/** Removes buckets that have refilled completely (a missing bucket is a full one). */
export async function purgeFullBuckets(db: Db, nowMs: number, batch: number): Promise<number> {
  return db('rate_limit_buckets')
    .whereIn(
      'key',
      db('rate_limit_buckets')
        .select('key')
        .where('updated_ms', '<', nowMs - 60_000)
        .andWhereRaw('updated_ms + (burst - tokens) / rate_per_second * 1000 < ?', [nowMs])
        .limit(batch),
    )
    .delete();
}
