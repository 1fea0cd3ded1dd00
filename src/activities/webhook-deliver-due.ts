import { Context } from '@temporalio/activity';
import {
  type AttemptRecord,
  type ClaimedDelivery,
  claimDueDeliveries,
  nextDueAt,
  recordAttempts,
  stopDeliveries,
} from '../db/repositories/webhook-due-deliveries';
import type { EndpointRow } from '../db/repositories/webhook-endpoints';
import { DELIVERY_OFFSETS_MS } from '../domain/webhooks/retry-schedule';
import { destinationProblem } from './destination-check';
import { envelopeOf, sendEnvelope, type WebhookActivityDeps } from './webhook-attempt';
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

/**
 * One activity call works this long at most, then returns, so the workflow's history records
 * progress and a signal or a cancellation is seen; a backlog continues in the next call at once.
 */
const CALL_BUDGET_MS = 30_000;
/**
 * Deliveries claimed at once, in rounds of the endpoint's concurrency: a burst costs a claim and a
 * recording transaction per ROUNDS_PER_CLAIM x concurrency deliveries.
 */
const ROUNDS_PER_CLAIM = 5;
/** A claim's lease outlasts its rounds' deadlines by this much (the recording transactions). */
const LEASE_MARGIN_MS = 15_000;

/**
 * The per-endpoint delivery activity (docs/webhooks.md, "Delivery"): claims the endpoint's due
 * deliveries a batch at a time (the batch is the endpoint's concurrency,
 * WEBHOOK_ENDPOINT_CONCURRENCY), posts the batch concurrently, records every attempt with the
 * delivery's next due time from its own schedule in one transaction, and updates the endpoint's
 * failure streak; until nothing is due or the call's budget is spent.
 */
export function createDeliverDue(deps: WebhookActivityDeps) {
  const { db } = deps;
  const streak = createFailureStreak(deps);
  const concurrency = deps.webhooks.maxInFlightPerEndpoint;
  // A claim covers a few rounds of the endpoint's concurrency: fewer queries per delivery in a burst.
  const batch = concurrency * ROUNDS_PER_CLAIM;
  // A claimed batch belongs to this worker for its rounds' deadlines plus time for the bookkeeping.
  const leaseMs = ROUNDS_PER_CLAIM * deps.webhooks.timeoutMs + LEASE_MARGIN_MS;

  return async function deliverDue(input: DeliverDueInput): Promise<DeliverDueResult> {
    const result: DeliverDueResult = { delivered: 0, failed: 0, stopped: 0, nextDueAt: null };
    const startedReal = Date.now();
    // Workflow time advanced by the real time this call has run.
    const clock = () => new Date(Date.parse(input.now) + Date.now() - startedReal);
    const heartbeat = setInterval(() => heartbeatIfActivity(), 5_000);
    try {
      while (Date.now() - startedReal < CALL_BUDGET_MS) {
        const claimed = await claimDueDeliveries(db, {
          endpointId: input.endpointId,
          now: clock(),
          limit: batch,
          leaseMs,
        });
        if (!claimed.length) break;
        const endpoint = (await db('webhook_endpoints').where({ id: input.endpointId }).first()) as
          | EndpointRow
          | undefined;
        if (!endpoint?.enabled) {
          await stopDeliveries(
            db,
            claimed.map((c) => c.delivery_id),
          );
          result.stopped += claimed.length;
          continue;
        }
        const records = await attemptBatch(endpoint, claimed, clock);
        const ok = records.filter((r) => r.succeeded).length;
        result.delivered += ok;
        result.failed += records.length - ok;
        // Any 2xx ends the streak; a batch with none continues it.
        if (!ok) await streak.failed(endpoint, records[0]?.startedAt ?? clock());
        else if (endpoint.failing_since) await streak.succeeded(endpoint.id);
        heartbeatIfActivity();
      }
      result.nextDueAt = (await nextDueAt(db, input.endpointId))?.toISOString() ?? null;
      return result;
    } finally {
      clearInterval(heartbeat);
    }
  };

  async function attemptBatch(
    endpoint: EndpointRow,
    claimed: ClaimedDelivery[],
    clock: () => Date,
  ): Promise<AttemptRecord[]> {
    // Checked before each batch (DNS answers change); the connection's own lookup checks again.
    const refused = await destinationProblem(new URL(endpoint.url), deps.webhooks.allowPrivateNetworks);
    // Attempts are recorded as they finish, a round's worth per transaction (serialised): a worker
    // that dies mid-batch leaves at most about two rounds sent but unrecorded, sent again later.
    let unrecorded: AttemptRecord[] = [];
    let recording: Promise<void> = Promise.resolve();
    const record = () => {
      const round = unrecorded;
      unrecorded = [];
      recording = recording.then(() => recordAttempts(db, round));
      return recording;
    };
    const records = await mapConcurrently(claimed, concurrency, async (row) => {
      // Each attempt's own time: later rounds of a claim start later.
      const attempted = await attemptOne(endpoint, row, clock(), refused);
      unrecorded.push(attempted);
      if (unrecorded.length >= concurrency) await record();
      return attempted;
    });
    await record();
    return records;
  }

  async function attemptOne(
    endpoint: EndpointRow,
    row: ClaimedDelivery,
    at: Date,
    refused: string | undefined,
  ): Promise<AttemptRecord> {
    const attempt = row.round_attempts + 1;
    const isResent = row.resend || attempt > 1;
    const sent = await sendEnvelope(deps, {
      deliveryId: row.delivery_id,
      attempt,
      envelope: envelopeOf(row, isResent),
      endpoint,
      testEvent: row.is_test_event === true,
      refused,
    });
    const roundStartedAt = row.round_started_at ?? at;
    const offset = DELIVERY_OFFSETS_MS[attempt];
    const nextAttemptAt =
      sent.succeeded || offset === undefined
        ? null
        : new Date(Math.max(roundStartedAt.getTime() + offset, at.getTime()));
    return {
      deliveryId: row.delivery_id,
      attempt,
      isResent,
      startedAt: at,
      roundStartedAt,
      nextAttemptAt,
      ...sent,
    };
  }
}

/** Heartbeats when running as an activity (a worker that dies is noticed in seconds, not minutes). */
function heartbeatIfActivity(): void {
  try {
    Context.current().heartbeat();
  } catch {
    // not inside an activity (a direct call from a test)
  }
}

/** fn over items, at most `limit` at a time; results in the items' order. */
async function mapConcurrently<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}
