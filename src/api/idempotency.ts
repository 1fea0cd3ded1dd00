import type { Context } from 'koa';
import {
  type Answer,
  type ClaimedReads,
  type IdempotencyDeps,
  type OnceResult,
  runOnce,
} from '../idempotency/run-once';
import { businessMetrics } from '../observability/metrics';
import { asApiError } from './order-failures';
import { leaseOf } from './process-lease';

export type { Answer };

/** Sends an answer as the exact text that is stored for replays (so replays are byte-identical). */
function send(ctx: Context, { status, text, replayed }: OnceResult): void {
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

/**
 * The Koa side of idempotency (the rules are in src/idempotency/run-once.ts): runs `run` once per
 * (merchant, idempotencyKey) under this process's lease and sends the fresh or stored answer.
 * `run` is the route's: the use case and the shaping of its result. An order use case's typed
 * failure becomes the API's error (src/api/order-failures.ts) before the runner judges whether
 * it is the operation's final word, to be stored.
 * Requests that failed validation never get here, and a refusal of the checks on the claim's
 * `reads` frees the key, so their answers are never stored. Returns
 * what was sent, with the structured answer when the operation ran for this request (the
 * metrics count those: src/api/evaluate-metrics.ts), none on a replay.
 */
export async function idempotent(
  ctx: Context,
  deps: IdempotencyDeps,
  scope: { merchantId: string; operation: string; key: string | undefined; request: unknown; reads?: ClaimedReads },
  run: () => Promise<Answer>,
): Promise<OnceResult> {
  const call = { ...scope, requestId: ctx.state.requestId, limit: ctx.state.claimedLimit };
  const answered = () =>
    run().catch((err: unknown) => {
      throw asApiError(err);
    });
  const result = await runOnce(deps, leaseOf(ctx.app), call, answered);
  if (result.replayed) businessMetrics.idempotency('replayed');
  send(ctx, result);
  return result;
}
