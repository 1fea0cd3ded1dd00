import type { Knex } from 'knex';
import type { Db } from '../knex';
import { prepared } from '../prepared';
import type { IdempotencyKeyRecord } from '../tables/idempotency-keys';
import { LEASE_MS } from './process-leases';
import { type BucketTake, bucketLockTimedOut, type SharedBucketState, takeTokenSql } from './rate-limits';

/**
 * Idempotency records: one per (merchant, idempotencyKey), kept 24 hours. The first request
 * claims the key (in flight), then stores its answer (completed); a retry replays that answer.
 *
 * A claim names the API process holding it (`owner_id`, whose lease is a heartbeat row in
 * `api_processes`) and itself (`claim_id`). A claim whose owner's lease ran out (the process
 * died: it stops heartbeating) is taken over at once; a claim with no owner, or whose live owner
 * has held it past ABANDONED_AFTER_MS (a lost release), is taken over after that.
 */
export const REPLAY_WINDOW_MS = 24 * 3_600_000;
/** A claim older than this is taken over whatever its owner (backstop for lost releases). */
export const ABANDONED_AFTER_MS = 2 * 60_000;
/**
 * Per statement: one that outlives it is cancelled in Postgres (a claim blocked on a lock is not written
 * after its caller got a 503); when even the cancel cannot reach a frozen server, knex drops the connection.
 */
const STORE_TIMEOUT_MS = 1_000;

export type Claim = (
  | { kind: 'claimed' }
  | { kind: 'replay'; status: number; body: string }
  | { kind: 'conflict'; reason: 'in_flight' | 'mismatch' }
  /** The rate limit taken with the claim refused: nothing was claimed. */
  | { kind: 'rate_limited' }
  /** The bucket's row stayed locked past BUCKET_LOCK_WAIT_MS: nothing claimed; decide the limit another way. */
  | { kind: 'bucket_busy'; cause: unknown }
) & {
  /** The bucket the claim took its token from, when it was asked to take one. */
  limit?: SharedBucketState;
  /** The row of the `alongside` read, when the statement that took the token carried it. */
  alongside?: unknown;
};

interface Scope {
  merchantId: string;
  key: string;
}

/** Who claims: the API process (its lease id; null when it runs without one) and the claim's id. */
export interface Claimant {
  ownerId: string | null;
  claimId: string;
}

/** A key's row with whether its owner's lease is alive (joined from api_processes). */
type Row = IdempotencyKeyRecord & { owner_alive: boolean };

export async function claimIdempotencyKey(
  db: Db,
  scope: Scope & { operation: string; requestHash: string },
  now: Date,
  claimant: Claimant,
  /** A rate-limit token to take in the same statement: refused (or its row busy), nothing is claimed. */
  bucket?: BucketTake,
  /** A select of one row sent in the token's statement (one round trip less); its row comes back as `alongside`. */
  alongside?: Knex.Raw,
): Promise<Claim> {
  const fresh = {
    merchant_id: scope.merchantId,
    key: scope.key,
    operation: scope.operation,
    request_hash: scope.requestHash,
    state: 'in_flight' as const,
    created_at: now,
    expires_at: new Date(now.getTime() + REPLAY_WINDOW_MS),
    owner_id: claimant.ownerId,
    claim_id: claimant.claimId,
  };
  const where = { merchant_id: scope.merchantId, key: scope.key };
  let limit: SharedBucketState | undefined;
  let read: { alongside?: unknown } = {};
  for (let attempt = 0; attempt < 2; attempt++) {
    if (bucket && !limit) {
      const taken = await claimWithToken(db, fresh, bucket, alongside);
      if ('busy' in taken) return { kind: 'bucket_busy', cause: taken.busy };
      limit = taken.limit;
      if (alongside) read = { alongside: taken.alongside };
      if (!limit.allowed) return { kind: 'rate_limited', limit, ...read };
      if (taken.claimed) return { kind: 'claimed', limit, ...read };
    } else {
      const inserted = await db('idempotency_keys')
        .insert(fresh)
        .onConflict(['merchant_id', 'key'])
        .ignore()
        .returning('key')
        .timeout(STORE_TIMEOUT_MS, { cancel: true });
      if (inserted.length) return { kind: 'claimed', ...(limit && { limit }), ...read };
    }
    const row = (await db('idempotency_keys as k')
      .leftJoin('api_processes as p', 'p.id', 'k.owner_id')
      .where({ 'k.merchant_id': scope.merchantId, 'k.key': scope.key })
      .first(
        'k.*',
        db.raw(`coalesce(p.heartbeat_at > clock_timestamp() - make_interval(secs => ?), false) as owner_alive`, [
          LEASE_MS / 1000,
        ]),
      )
      .timeout(STORE_TIMEOUT_MS, { cancel: true })) as Row | undefined;
    if (!row) continue; // expired and removed meanwhile: claim again
    if (row.expires_at <= now) {
      // Past the replay window the key is free again.
      await db('idempotency_keys')
        .where(where)
        .andWhere('expires_at', '<=', now)
        .delete()
        .timeout(STORE_TIMEOUT_MS, { cancel: true });
      continue;
    }
    const taken = { ...(limit && { limit }), ...read };
    if (row.operation !== scope.operation || row.request_hash !== scope.requestHash)
      return { kind: 'conflict', reason: 'mismatch', ...taken };
    if (row.state === 'completed')
      return { kind: 'replay', status: row.response_status as number, body: row.response_body as string, ...taken };
    if (!isAbandoned(row, now)) return { kind: 'conflict', reason: 'in_flight', ...taken };
    const takenOver = await db('idempotency_keys')
      .where({ ...where, state: 'in_flight' })
      .andWhere((q) =>
        row.claim_id === null
          ? q.whereNull('claim_id').andWhere('created_at', row.created_at)
          : q.where('claim_id', row.claim_id),
      )
      .update({ created_at: now, owner_id: claimant.ownerId, claim_id: claimant.claimId })
      .timeout(STORE_TIMEOUT_MS, { cancel: true });
    return takenOver ? { kind: 'claimed', ...taken } : { kind: 'conflict', reason: 'in_flight', ...taken };
  }
  return { kind: 'conflict', reason: 'in_flight', ...(limit && { limit }), ...read };
}

/**
 * The rate limit's token and the claim in one statement (one round trip, not two): the bucket's
 * upsert, then the key's insert only when the bucket allowed it. A bucket row locked past its bound
 * fails the statement, writing nothing: `busy`. A long wait on the key itself (claimed by another
 * request at that moment) reads as busy too; the claim without the bucket then finds it in flight.
 */
async function claimWithToken(
  db: Db,
  fresh: Omit<IdempotencyKeyRecord, 'response_status' | 'response_body'>,
  bucket: BucketTake,
  alongside: Knex.Raw | undefined,
): Promise<{ limit: SharedBucketState; claimed: boolean; alongside?: unknown } | { busy: unknown }> {
  const take = takeTokenSql(bucket);
  const read = alongside ? db.raw('(select to_jsonb(a) from (?) as a)', [alongside]) : db.raw('null');
  const result = await prepared(
    db.raw(
      `with bucket as (${take.sql}),
       claimed as (
         insert into idempotency_keys
           (merchant_id, key, operation, request_hash, state, created_at, expires_at, owner_id, claim_id)
         select ?::uuid, ?::uuid, ?, ?, 'in_flight', ?::timestamptz, ?::timestamptz, ?::uuid, ?::uuid
         where (select allowed from bucket)
         on conflict (merchant_id, key) do nothing
         returning key
       )
       select bucket.tokens, bucket.allowed, exists (select 1 from claimed) as claimed, ? as alongside from bucket`,
      [
        ...take.bindings,
        fresh.merchant_id,
        fresh.key,
        fresh.operation,
        fresh.request_hash,
        fresh.created_at,
        fresh.expires_at,
        fresh.owner_id,
        fresh.claim_id,
        read,
      ],
    ),
  )
    .timeout(STORE_TIMEOUT_MS, { cancel: true })
    .catch((err: unknown) => {
      if (bucketLockTimedOut(err)) return { busy: err };
      throw err;
    });
  if ('busy' in result) return result;
  const row = (result as { rows: Array<{ tokens: number; allowed: boolean; claimed: boolean; alongside: unknown }> })
    .rows[0];
  if (!row) throw new Error('rate limit bucket not returned');
  return { limit: { allowed: row.allowed, tokens: row.tokens }, claimed: row.claimed, alongside: row.alongside };
}

/** An in-flight claim may be taken over when its owner is dead, or it is older than the backstop. */
function isAbandoned(row: Row, now: Date): boolean {
  if (row.owner_id !== null && !row.owner_alive) return true;
  return now.getTime() - row.created_at.getTime() >= ABANDONED_AFTER_MS;
}

/** Stores the answer of this claim (nothing when another process has taken the claim over). */
export async function completeIdempotencyKey(
  db: Db,
  scope: Scope,
  claimId: string,
  status: number,
  body: string,
): Promise<void> {
  await prepared(
    db('idempotency_keys')
      .where({ merchant_id: scope.merchantId, key: scope.key, claim_id: claimId })
      .update({ state: 'completed', response_status: status, response_body: body }),
  ).timeout(STORE_TIMEOUT_MS, { cancel: true });
}

/** Frees this claim when its outcome is unknown (a 5xx), so the caller may retry with the same key. */
export async function releaseIdempotencyKey(db: Db, scope: Scope, claimId: string): Promise<void> {
  await db('idempotency_keys')
    .where({ merchant_id: scope.merchantId, key: scope.key, state: 'in_flight', claim_id: claimId })
    .delete()
    .timeout(STORE_TIMEOUT_MS, { cancel: true });
}
