import { type Client, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { Db } from './db/knex';
import { subscribedEndpoints } from './db/repositories/webhook-endpoints';
import { derivedUuid } from './domain/ids';
import { isPartnerEvent } from './domain/webhooks/event-names';
import type { Logger } from './logger';
import { webhookDeliveryWorkflow } from './workflows';

export function deliveryWorkflowId(deliveryId: string): string {
  return `webhook-delivery:${deliveryId}`;
}

/** A delivery with no attempt this long after its creation lost its workflow start (a crash): start it again. */
const STALE_PENDING_MS = 60_000;

/**
 * The outbox relay, run beside every worker. In one transaction it claims events not yet
 * dispatched (FOR UPDATE SKIP LOCKED, so several workers share the work), creates one delivery per
 * subscribed endpoint and marks the events dispatched; after the commit it starts each delivery's
 * workflow (so the workflow always finds its row). Delivery ids derive from (event, endpoint):
 * a repeated fan-out creates nothing twice, and a start lost to a crash is made by the sweep of
 * stale pending deliveries, under the same workflow id.
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
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> = Promise.resolve();
  let lastSweep = 0;

  async function fanOut(): Promise<string[]> {
    return deps.db.transaction(async (trx) => {
      const events = await trx('events')
        .whereNull('dispatched_at')
        .orderBy('sequence', 'asc')
        .limit(deps.batch ?? 200)
        .forUpdate()
        .skipLocked();
      const created: string[] = [];
      for (const event of events) {
        const owner = {
          partnerId: event.partner_id,
          merchantId: isPartnerEvent(event.name) ? null : event.merchant_id,
        };
        const endpoints = await subscribedEndpoints(trx, owner, event.name);
        const deliveries = endpoints.map((endpoint) => ({
          id: derivedUuid(event.id, endpoint.id),
          event_id: event.id,
          endpoint_id: endpoint.id,
          status: 'pending',
        }));
        if (deliveries.length)
          await trx('webhook_deliveries').insert(deliveries).onConflict(['event_id', 'endpoint_id']).ignore();
        created.push(...deliveries.map((d) => d.id));
      }
      if (events.length)
        await trx('events')
          .whereIn(
            'id',
            events.map((e) => e.id),
          )
          .update({ dispatched_at: trx.fn.now() });
      return created;
    });
  }

  async function startDeliveries(ids: string[]): Promise<void> {
    for (const deliveryId of ids) {
      await deps.client.workflow
        .start(webhookDeliveryWorkflow, {
          workflowId: deliveryWorkflowId(deliveryId),
          taskQueue: deps.taskQueue,
          args: [{ deliveryId, resend: false }],
        })
        .catch((err: unknown) => {
          if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
        });
    }
  }

  async function sweepStale(): Promise<void> {
    const stale = await deps
      .db('webhook_deliveries')
      .where({ status: 'pending', attempts: 0 })
      .andWhere('created_at', '<', new Date(Date.now() - STALE_PENDING_MS))
      .limit(500)
      .pluck('id');
    await startDeliveries(stale);
  }

  async function loop(): Promise<void> {
    if (stopped) return;
    let busy = false;
    try {
      const created = await fanOut();
      busy = created.length > 0;
      await startDeliveries(created);
      if (Date.now() - lastSweep > STALE_PENDING_MS) {
        lastSweep = Date.now();
        await sweepStale();
      }
    } catch (err) {
      deps.logger.warn({ err }, 'outbox relay: dispatch failed; retrying');
    }
    if (!stopped) timer = setTimeout(() => (inFlight = loop()), busy ? 0 : interval);
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
