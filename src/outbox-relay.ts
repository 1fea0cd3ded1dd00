import type { Client } from '@temporalio/client';
import type { Db } from './db/knex';
import { anyUndispatchedEvent, claimUndispatchedEvents, markEventsDispatched } from './db/repositories/events';
import { endpointsOverdue, insertDueDeliveries, type NewDelivery } from './db/repositories/webhook-due-deliveries';
import { subscribedEndpoints } from './db/repositories/webhook-endpoints';
import { derivedUuid } from './domain/ids';
import { isPartnerEvent } from './domain/webhooks/event-names';
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
 * The outbox relay, run beside every worker. In one transaction it claims events not yet
 * dispatched (FOR UPDATE SKIP LOCKED, so several workers share the work), creates one delivery per
 * subscribed endpoint, due now, and marks the events dispatched; after the commit it signals each
 * endpoint touched (so the workflow always finds its rows). Delivery ids derive from (event,
 * endpoint): a repeated fan-out creates nothing twice, and a signal lost to a crash is sent by the
 * sweep of overdue deliveries.
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

  /** Fans a batch of events out; answers the endpoints that got deliveries. */
  async function fanOut(): Promise<{ events: number; endpoints: Set<string> }> {
    return deps.db.transaction(async (trx) => {
      const events = await claimUndispatchedEvents(trx, batch);
      // Subscriptions are looked up once per owner and event name in the batch, not once per event.
      const subscribed = new Map<string, Promise<string[]>>();
      const deliveries: NewDelivery[] = [];
      for (const event of events) {
        const owner = {
          partnerId: event.partner_id,
          merchantId: isPartnerEvent(event.name) ? null : event.merchant_id,
        };
        const key = `${owner.partnerId}:${owner.merchantId}:${event.name}`;
        if (!subscribed.has(key))
          subscribed.set(
            key,
            subscribedEndpoints(trx, owner, event.name).then((rows) => rows.map((r) => r.id)),
          );
        for (const endpointId of (await subscribed.get(key)) ?? []) {
          deliveries.push({ id: derivedUuid(event.id, endpointId), event_id: event.id, endpoint_id: endpointId });
        }
      }
      for (let i = 0; i < deliveries.length; i += 1000) await insertDueDeliveries(trx, deliveries.slice(i, i + 1000));
      await markEventsDispatched(
        trx,
        events.map((e) => e.id),
      );
      return { events: events.length, endpoints: new Set(deliveries.map((d) => d.endpoint_id)) };
    });
  }

  async function sweepStale(): Promise<void> {
    await signalEndpoints(deps.client, deps.taskQueue, await endpointsOverdue(deps.db, STALE_PENDING_MS));
  }

  /**
   * The last batch had events: the next claims without looking first. Only a full batch (a
   * backlog) is followed at once; otherwise the next claim waits the interval, so under load each
   * fan-out transaction (five statements) carries every event of the interval, not one order's.
   */
  let busy = false;
  async function loop(): Promise<void> {
    if (stopped) return;
    const claimAtOnce = busy;
    busy = false;
    let full = false;
    try {
      // Idle, a poll is one statement: the transaction (BEGIN, claim, COMMIT) only when events wait.
      const { events, endpoints } =
        claimAtOnce || (await anyUndispatchedEvent(deps.db)) ? await fanOut() : { events: 0, endpoints: [] };
      busy = events > 0;
      full = events >= batch;
      await signalEndpoints(deps.client, deps.taskQueue, endpoints);
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
