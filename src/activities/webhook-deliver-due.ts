import { Context } from '@temporalio/activity';
import {
  type ClaimedDelivery,
  claimDueDeliveries,
  nextDueAt,
  releaseClaims,
  stopDeliveries,
} from '../db/repositories/webhook-due-deliveries';
import { type EndpointRow, findEndpoint } from '../db/repositories/webhook-endpoints';
import { destinationProblem } from './destination-check';
import { attemptClaimed, type WebhookActivityDeps } from './webhook-attempt';
import { createAttemptRecorder } from './webhook-attempt-recorder';
import { createFailureStreak } from './webhook-streak';

export interface DeliverDueInput {
  endpointId: string;
  /** Workflow time: due times and the schedule are measured in it (time-skipping tests too). */
  now: string;
}

export interface DeliverDueResult {
  delivered: number;
  failed: number;
  stopped: number;
  /** When the endpoint's next delivery is due (ISO), or null when none is pending. */
  nextDueAt: string | null;
}

/** One call works this long at most, then returns (the history records progress); a backlog continues at once. */
const CALL_BUDGET_MS = 30_000;
/**
 * Deliveries claimed at once, in rounds of the endpoint's concurrency: a burst costs a claim and a
 * recording transaction per ROUNDS_PER_CLAIM x concurrency deliveries.
 */
const ROUNDS_PER_CLAIM = 5;
/** A claim's lease outlasts its rounds' deadlines by this much (the recording transactions). */
const LEASE_MARGIN_MS = 15_000;
/**
 * The endpoint's row is read again before an attempt once it is this old: a delete, a disable or
 * a secret switched "now" reaches the rows a call already claimed within a second.
 */
const ENDPOINT_REREAD_MS = 1_000;

/**
 * The per-endpoint delivery activity (docs/webhooks.md, "Delivery"): claims the endpoint's due
 * deliveries (ROUNDS_PER_CLAIM rounds of WEBHOOK_ENDPOINT_CONCURRENCY at a time, the next claim
 * made while the last rounds are in flight), posts them with at most that many in flight, records
 * every attempt with the delivery's next due time from its own schedule, and updates the
 * endpoint's failure streak; until nothing is due or the call's budget is spent.
 */
export function createDeliverDue(deps: WebhookActivityDeps) {
  const { db } = deps;
  const streak = createFailureStreak(deps);
  const concurrency = deps.webhooks.maxInFlightPerEndpoint;
  // A claim covers a few rounds of the endpoint's concurrency: fewer queries per delivery in a burst.
  const batch = concurrency * ROUNDS_PER_CLAIM;
  // Claimed rows belong to this worker for their rounds' deadlines (plus the round still running
  // when they were claimed) and time for the bookkeeping.
  const leaseMs = (ROUNDS_PER_CLAIM + 1) * deps.webhooks.timeoutMs + LEASE_MARGIN_MS;

  return async function deliverDue(input: DeliverDueInput): Promise<DeliverDueResult> {
    const result: DeliverDueResult = { delivered: 0, failed: 0, stopped: 0, nextDueAt: null };
    const startedReal = Date.now();
    // Workflow time advanced by the real time this call has run.
    const clock = () => new Date(Date.parse(input.now) + Date.now() - startedReal);
    const heartbeat = setInterval(() => heartbeatIfActivity(), 5_000);
    const recorder = createAttemptRecorder(db, concurrency);
    const queue: ClaimedDelivery[] = [];
    let endpoint: EndpointRow | undefined;
    let endpointReadAt = 0;
    let rereading: Promise<EndpointRow | undefined> | undefined;
    let refused: string | undefined;
    let done = false; // nothing more to claim: none due, or the budget spent
    let claiming: Promise<void> | undefined;
    let lastFailureAt: Date | undefined;
    let failure: unknown; // a claim that failed: thrown once the lanes have stopped
    // A failing endpoint (a streak running, or an attempt of this call failed) gets one attempt at
    // a time: a hanging one then holds one socket, not its full concurrency, until it answers 2xx.
    let oneAtATime = false;

    async function refill(): Promise<void> {
      if (Date.now() - startedReal >= CALL_BUDGET_MS) {
        done = true;
        return;
      }
      const claimed = await claimDueDeliveries(db, {
        endpointId: input.endpointId,
        now: clock(),
        limit: batch,
        leaseMs,
      });
      if (!claimed.length) {
        done = true;
        return;
      }
      const row = await findEndpoint(db, input.endpointId);
      endpointReadAt = Date.now();
      if (!row?.enabled) {
        // Disabled or deleted: what came due stops, unsent (the next refill takes the rest).
        await stopDeliveries(
          db,
          claimed.map((c) => c.delivery_id),
        );
        result.stopped += claimed.length;
        return;
      }
      endpoint = row;
      if (row.failing_since) oneAtATime = true;
      // Checked per claim (DNS answers change); the connection's own lookup checks again.
      refused = await destinationProblem(new URL(row.url), deps.webhooks.privateNetworks);
      queue.push(...claimed);
    }

    /** The endpoint as it is now (ENDPOINT_REREAD_MS); undefined once disabled or deleted. */
    async function endpointNow(): Promise<EndpointRow | undefined> {
      if (!endpoint || Date.now() - endpointReadAt < ENDPOINT_REREAD_MS) return endpoint;
      rereading ??= findEndpoint(db, input.endpointId)
        .then((row) => {
          endpointReadAt = Date.now();
          endpoint = row?.enabled ? row : undefined;
          return endpoint;
        })
        .finally(() => {
          rereading = undefined;
        });
      return rereading;
    }

    async function lane(index: number): Promise<void> {
      for (;;) {
        if (oneAtATime && index > 0) return;
        if (Date.now() - startedReal >= CALL_BUDGET_MS) {
          done = true; // what is still queued is released below, for the next call
          return;
        }
        if (!done && queue.length <= concurrency) {
          claiming ??= refill()
            .catch((err: unknown) => {
              failure ??= err;
              done = true;
            })
            .finally(() => {
              claiming = undefined;
            });
          if (!queue.length) {
            await claiming;
            continue;
          }
        }
        const row = queue.shift();
        if (!row) return;
        const current = await endpointNow();
        if (!current) {
          // Disabled or deleted since it was claimed: this row and the rest stop, unsent.
          const stopped = [row, ...queue.splice(0)].map((r) => r.delivery_id);
          done = true;
          await stopDeliveries(db, stopped);
          result.stopped += stopped.length;
          return;
        }
        const attempted = await attemptClaimed(deps, current, row, clock(), refused);
        if (attempted.succeeded) result.delivered += 1;
        else {
          result.failed += 1;
          lastFailureAt = attempted.startedAt;
          oneAtATime = true;
        }
        await recorder.add(attempted);
      }
    }

    try {
      await Promise.all(
        Array.from({ length: concurrency }, (_, index) =>
          lane(index).catch((err: unknown) => {
            done = true; // stop the other lanes too
            queue.length = 0;
            throw err;
          }),
        ),
      );
      await recorder.finish();
      if (failure) throw failure;
      await releaseClaims(
        db,
        queue.splice(0).map((r) => r.delivery_id),
      );
      // Any 2xx ends the streak; a call with failures only continues it.
      if (result.delivered && endpoint?.failing_since) await streak.succeeded(endpoint.id);
      else if (!result.delivered && endpoint && lastFailureAt) await streak.failed(endpoint, lastFailureAt);
      result.nextDueAt = (await nextDueAt(db, input.endpointId))?.toISOString() ?? null;
      if (!result.nextDueAt && endpoint && (endpoint.failing_since || lastFailureAt)) await streak.idle(endpoint.id);
      return result;
    } finally {
      clearInterval(heartbeat);
    }
  };
}

/** Heartbeats when running as an activity (a worker that dies is noticed in seconds, not minutes). */
function heartbeatIfActivity(): void {
  try {
    Context.current().heartbeat();
  } catch {
    // not inside an activity (a direct call from a test)
  }
}
