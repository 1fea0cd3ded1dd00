import { createHash, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { type Db, withDeadline } from '../db/knex';
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey } from '../db/repositories/idempotency';
import type { BucketTake, SharedBucketState } from '../db/repositories/rate-limits';
import { canonicalJson } from '../domain/canonical-json';
import type { Clock } from '../domain/clock';
import { databaseUnavailable } from '../domain/database-unavailable';
import { ApiError, errorBody } from '../domain/errors';
import type { Logger } from '../logger';

/** What a keyed operation answers: a status and a JSON body (undefined: an empty body). */
export interface Answer {
  status: number;
  body?: unknown;
}

export interface IdempotencyDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
}

/**
 * The process that claims keys (the API process's lease, src/api/process-lease.ts): its claims
 * are taken over quickly when it dies, and it retries releases the database refused.
 */
export interface ClaimHolder {
  id: string;
  retryLater(claimId: string, release: () => Promise<void>): void;
}

/** One keyed operation: whose key, the key, and what it was used for (its fingerprint). */
export interface IdempotentCall {
  merchantId: string;
  /** Undefined: no key was sent, the operation simply runs. */
  key: string | undefined;
  operation: string;
  /** The request as parsed; the same key with another request is refused (idempotency_key_reused). */
  request: unknown;
  /** Put in the stored body of an error answer (the request that first used the key). */
  requestId: string;
  /** The request's rate-limit token, taken in the claim's statement (src/api/middleware/rate-limit.ts). */
  limit?: ClaimedLimit;
  /** What the operation reads before it runs, sent in the claim's statement: one round trip less. */
  reads?: ClaimedReads;
}

/**
 * An operation's reads and the checks on them. A check that refuses (a 4xx) frees the key: nothing
 * is stored, and the request changes nothing, as if it had been refused before the claim. A
 * claim answered from the store (a replay, a conflict) is not checked.
 */
export interface ClaimedReads {
  /** One select of one row. */
  query: Knex.Raw;
  /** Checks the read's row; undefined when the claim could not carry it (the check reads it then). */
  check(row: unknown): Promise<void>;
}

/** A rate-limit token the claim takes: `settle` hears the bucket's state (and throws 429 when refused). */
export interface ClaimedLimit {
  bucket: BucketTake;
  settle(state: SharedBucketState): void;
  /**
   * The bucket's row stayed locked past its bound (`cause`): this process's own buckets decide,
   * as when the shared limits fail (throws 429 when refused).
   */
  settleAlone(cause: unknown): void;
}

/** The answer as stored for replays: the exact text, so a replay is byte-identical. */
export interface OnceResult {
  status: number;
  /** JSON text, or '' for an empty body. */
  text: string;
  /** True when this is the stored answer of an earlier request with the same key. */
  replayed: boolean;
  /** The answer as the operation gave it, when it ran for this request (not on a replay). */
  answer?: Answer;
}

const toText = (body: unknown) => (body === undefined ? '' : JSON.stringify(body));

/** What the key is bound to: the operation and the canonical request, hashed. */
export function requestFingerprint(operation: string, request: unknown): string {
  return createHash('sha256')
    .update(`${operation}\n${canonicalJson(request)}`)
    .digest('hex');
}

/**
 * Runs `run` at most once per (merchant, key) within 24 hours (docs/idempotency.md), and answers
 * the stored result to every repeat. Definitive error answers of the operation are stored and
 * replayed; any other failure frees the key (retry with the same key) and is rethrown. The
 * store failing is a 503 with Retry-After, distinct from rescue_unavailable.
 */
export async function runOnce(
  deps: IdempotencyDeps,
  holder: ClaimHolder | undefined,
  call: IdempotentCall,
  run: () => Promise<Answer>,
): Promise<OnceResult> {
  if (!call.key) {
    await call.reads?.check(undefined);
    const answer = await run();
    return { status: answer.status, text: toText(answer.body), replayed: false, answer };
  }
  const keyScope = { merchantId: call.merchantId, key: call.key };
  const requestHash = requestFingerprint(call.operation, call.request);
  const claimId = randomUUID();
  const release = () => releaseIdempotencyKey(deps.db, keyScope, claimId);
  // A claim that timed out may still have been written: the holder retries freeing it.
  const claimKey = (bucket: BucketTake | undefined) =>
    storeCall(
      deps.logger,
      () =>
        claimIdempotencyKey(
          deps.db,
          { ...keyScope, operation: call.operation, requestHash },
          deps.clock.now(),
          { ownerId: holder?.id ?? null, claimId },
          bucket,
          call.reads?.query,
        ),
      () => holder?.retryLater(claimId, release),
    );
  let claim = await claimKey(call.limit?.bucket);
  if (claim.kind === 'bucket_busy') {
    // A busy bucket must not fail the request: the process's own limits decide, then the key is
    // claimed without the bucket (nothing was written by the first statement).
    call.limit?.settleAlone(claim.cause);
    claim = await claimKey(undefined);
  }
  if (claim.limit) call.limit?.settle(claim.limit);
  if (claim.kind === 'rate_limited') throw new ApiError('rate_limited');
  if (claim.kind === 'replay') return { status: claim.status, text: claim.body, replayed: true };
  if (claim.kind === 'conflict') {
    throw new ApiError(claim.reason === 'mismatch' ? 'idempotency_key_reused' : 'idempotency_request_in_flight');
  }
  // Only a claim that takes a token can find its bucket busy, and the second one takes none.
  if (claim.kind !== 'claimed') throw new Error(`unexpected claim: ${claim.kind}`);

  try {
    await call.reads?.check(claim.alongside);
  } catch (err) {
    await withDeadline(release()).catch(() => holder?.retryLater(claimId, release));
    throw err;
  }
  let answer: Answer;
  try {
    answer = await run();
  } catch (err) {
    if (!isDefinitive(err)) {
      await withDeadline(release()).catch(() => holder?.retryLater(claimId, release));
      throw err;
    }
    answer = { status: err.status, body: errorBody(err, call.requestId) };
  }
  const text = toText(answer.body);
  await storeCall(
    deps.logger,
    () => completeIdempotencyKey(deps.db, keyScope, claimId, answer.status, text),
    () => holder?.retryLater(claimId, release),
  );
  return { status: answer.status, text, replayed: false, answer };
}

/**
 * An error answer is the operation's final word (stored, replayed for 24 hours) unless its
 * catalogue entry tells the client to retry the same request: 409 order_busy, 503
 * order_temporarily_unavailable, 500. Storing one of those would replay "retry" to every retry.
 */
function isDefinitive(err: unknown): err is ApiError {
  return err instanceof ApiError && (err.definition.retry === 'no' || err.definition.retry === 'after-fix');
}

/**
 * One call to the store with the edge deadline: a store that fails or does not answer in time
 * (Postgres down or frozen) is a 503 `503001` with Retry-After, never a 500 or a hang.
 */
async function storeCall<T>(logger: Logger, call: () => Promise<T>, onFailure: () => void): Promise<T> {
  try {
    return await withDeadline(call());
  } catch (err) {
    logger.warn({ err }, 'idempotency store unavailable');
    onFailure();
    throw databaseUnavailable();
  }
}
