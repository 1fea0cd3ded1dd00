import { createHash, randomUUID } from 'node:crypto';
import type { Context } from 'koa';
import { type Db, withDeadline } from '../db/knex';
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey } from '../db/repositories/idempotency';
import { canonicalJson } from '../domain/canonical-json';
import type { Clock } from '../domain/clock';
import { ApiError, errorBody } from '../domain/errors';
import type { Logger } from '../logger';
import type { Answer } from '../orders/answer';
import { databaseUnavailable } from './middleware/database-unavailable';
import { leaseOf } from './process-lease';

export type { Answer };

/** Sends an answer as the exact text that is stored for replays (so replays are byte-identical). */
function send(ctx: Context, status: number, text: string, replayed: boolean): void {
  if (replayed) ctx.set('Idempotent-Replayed', 'true');
  if (text === '') {
    ctx.body = '';
    ctx.remove('content-type');
  } else {
    ctx.type = 'application/json';
    ctx.body = text;
  }
  ctx.status = status;
}

const toText = (body: unknown) => (body === undefined ? '' : JSON.stringify(body));

/**
 * Runs `operation` at most once per (merchant, idempotencyKey) within 24 hours (docs/idempotency.md).
 * Without a key it simply runs. Answers of requests that failed validation are never stored (they
 * are refused before this point); 4xx answers of the operation itself are stored and replayed; a
 * 5xx frees the key (outcome unknown: retry with the same key). The store failing is a 503 with
 * Retry-After, distinct from rescue_unavailable.
 */
export async function idempotent(
  ctx: Context,
  deps: { db: Db; clock: Clock; logger: Logger },
  scope: { merchantId: string; operation: string; key: string | undefined; request: unknown },
  run: () => Promise<Answer>,
): Promise<void> {
  if (!scope.key) {
    const answer = await run();
    send(ctx, answer.status, toText(answer.body), false);
    return;
  }
  const keyScope = { merchantId: scope.merchantId, key: scope.key };
  const requestHash = createHash('sha256')
    .update(`${scope.operation}\n${canonicalJson(scope.request)}`)
    .digest('hex');
  const lease = leaseOf(ctx.app);
  const claimId = randomUUID();
  const release = () => releaseIdempotencyKey(deps.db, keyScope, claimId);
  // A claim that timed out may still have been written: the lease retries freeing it.
  const claim = await storeCall(
    deps.logger,
    () =>
      claimIdempotencyKey(deps.db, { ...keyScope, operation: scope.operation, requestHash }, deps.clock.now(), {
        ownerId: lease?.id ?? null,
        claimId,
      }),
    () => lease?.retryLater(claimId, release),
  );
  if (claim.kind === 'replay') return send(ctx, claim.status, claim.body, true);
  if (claim.kind === 'conflict') {
    throw new ApiError(claim.reason === 'mismatch' ? 'idempotency_key_reused' : 'idempotency_request_in_flight');
  }

  let answer: Answer;
  try {
    answer = await run();
  } catch (err) {
    const definitive = err instanceof ApiError && (err.status < 500 || err.errorName === 'rescue_unavailable');
    if (!definitive) {
      await withDeadline(release()).catch(() => lease?.retryLater(claimId, release));
      throw err;
    }
    answer = { status: err.status, body: errorBody(err, ctx.state.requestId) };
  }
  const text = toText(answer.body);
  await storeCall(
    deps.logger,
    () => completeIdempotencyKey(deps.db, keyScope, claimId, answer.status, text),
    () => lease?.retryLater(claimId, release),
  );
  send(ctx, answer.status, text, false);
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
