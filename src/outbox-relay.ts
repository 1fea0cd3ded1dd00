import type { Client } from '@temporalio/client';
import type { Db } from './db/knex';
import { fanOutUndispatchedEvents } from './db/repositories/outbox-fan-out';
import { endpointsOverdue } from './db/repositories/webhook-due-deliveries';
import type { Logger } from './logger';
import { deliveriesAddedSignal, endpointWorkflowId, webhookEndpointWorkflow } from './workflows';

/**
 * Tells each endpoint's delivery workflow that deliveries were added, starting it if it is not
 * running (signal-with-start: a run that has just completed is replaced by a new one). Once per
 * endpoint, however many deliveries it got.
 */
export async function signalEndpoints(client: Client, taskQueue: string, endpointIds: Iterable<string>): Promise<void> {
  await Promise.all(
    [...new Set(endpointIds)].map((endpointId) =>
      client.workflow.signalWithStart(webhookEndpointWorkflow, {
        workflowId: endpointWorkflowId(endpointId),
        taskQueue,
        args: [{ endpointId }],
        signal: deliveriesAddedSignal,
      }),
    ),
  );
}

/**
 * A delivery due this long ago and not claimed may have lost its signal (a crash between the
 * fan-out's commit and the signal): its endpoint is signalled again.
 */
const STALE_PENDING_MS = 60_000;

/**
 * The outbox relay, run beside every worker. Each poll is one statement
 * (src/db/repositories/outbox-fan-out.ts): it claims events not yet dispatched (FOR UPDATE SKIP
 * LOCKED, so several workers share the work), creates one delivery per subscribed endpoint, due
 * now, and marks the events dispatched; after it commits, the relay signals each endpoint touched
 * (so the workflow always finds its rows). Delivery ids derive from (event, endpoint): a repeated
 * fan-out creates nothing twice, and a signal lost to a crash is sent by the sweep of overdue
 * deliveries.
 */
export function startOutboxRelay(deps: {
  db: Db;
  client: Client;
  /** The webhook delivery task queue (config.temporal.webhookTaskQueue), apart from the orders'. */
  taskQueue: string;
  logger: Logger;
  intervalMs?: number;
  batch?: number;
}) {
  const interval = deps.intervalMs ?? 250;
  const batch = deps.batch ?? 500;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> = Promise.resolve();
  let lastSweep = 0;

  async function sweepStale(): Promise<void> {
    await signalEndpoints(deps.client, deps.taskQueue, await endpointsOverdue(deps.db, STALE_PENDING_MS));
  }

  /**
   * Only a full batch (a backlog) is followed at once; otherwise the next poll waits the
   * interval, so under load each fan-out carries every event of the interval, not one order's.
   */
  async function loop(): Promise<void> {
    if (stopped) return;
    let full = false;
    try {
      const { events, endpointIds } = await fanOutUndispatchedEvents(deps.db, batch);
      full = events >= batch;
      await signalEndpoints(deps.client, deps.taskQueue, endpointIds);
      if (Date.now() - lastSweep > STALE_PENDING_MS) {
        lastSweep = Date.now();
        await sweepStale();
      }
    } catch (err) {
      deps.logger.warn({ err }, 'outbox relay: dispatch failed; retrying');
    }
    if (!stopped) timer = setTimeout(() => (inFlight = loop()), full ? 0 : interval);
  }
  inFlight = loop();

  return {
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearTimeout(timer);
      await inFlight;
    },
  };
}
