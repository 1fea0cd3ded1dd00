import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import type { Db } from '../db/knex';
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey } from '../db/repositories/idempotency';
import { canonicalJson } from '../domain/canonical-json';
import type { Clock } from '../domain/clock';
import { ApiError, errorBody } from '../domain/errors';
import type { Logger } from '../logger';

export interface Answer {
  status: number;
  /** undefined: an empty body (cancel's 200). */
  body?: unknown;
}

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
  const claim = await storeCall(deps.logger, () =>
    claimIdempotencyKey(deps.db, { ...keyScope, operation: scope.operation, requestHash }, deps.clock.now()),
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
      await releaseIdempotencyKey(deps.db, keyScope).catch(() => undefined);
      throw err;
    }
    answer = { status: err.status, body: errorBody(err, ctx.state.requestId) };
  }
  const text = toText(answer.body);
  await storeCall(deps.logger, () => completeIdempotencyKey(deps.db, keyScope, answer.status, text));
  send(ctx, answer.status, text, false);
}

async function storeCall<T>(logger: Logger, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    logger.warn({ err }, 'idempotency store unavailable');
    throw new ApiError('idempotency_store_unavailable', { headers: { 'Retry-After': '1' } });
  }
}
