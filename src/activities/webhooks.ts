import { recordAttempt } from '../db/repositories/webhook-deliveries';
import type { EndpointRow } from '../db/repositories/webhook-endpoints';
import { acquireDeliverySlot, releaseDeliverySlot } from '../db/repositories/webhook-slots';
import { destinationProblem } from './destination-check';
import { type EnvelopeSource, envelopeOf, sendEnvelope, type WebhookActivityDeps } from './webhook-attempt';
import { createDeliverDue } from './webhook-deliver-due';
import { createFailureStreak } from './webhook-streak';

export type { WebhookActivityDeps } from './webhook-attempt';
export type { DeliverDueInput, DeliverDueResult } from './webhook-deliver-due';

export interface AttemptInput {
  deliveryId: string;
  /** The delivery workflow's id: it holds the attempt slot, and is signalled when it waits for one. */
  holder: string;
  attempt: number;
  isResent: boolean;
  /** Workflow time of the attempt: failure streaks are measured in it (time-skipping tests too). */
  at: string;
  /** When the next attempt will be made if this one fails; null when this is the last. */
  nextAttemptAt: string | null;
}

export type AttemptResult = {
  /** `busy`: no slot free for the endpoint or its merchant; nothing was sent, the delivery waits for a signal. */
  outcome: 'delivered' | 'failed' | 'stopped' | 'busy';
  statusCode: number | null;
  /** Workflow ids of waiting deliveries to signal: this attempt freed a slot they can use. */
  wake?: string[];
};

/**
 * Activities of webhook delivery: `deliverDue`, the per-endpoint workflow's batch of due
 * deliveries (webhook-deliver-due.ts), and `attemptDelivery`, one attempt of a per-delivery
 * workflow (webhookDeliveryWorkflow, kept for deliveries made before the per-endpoint workflow:
 * it takes an attempt slot first, docs/webhooks.md).
 */
export function createWebhookActivities(deps: WebhookActivityDeps) {
  const { db, logger } = deps;
  const streak = createFailureStreak(deps);

  async function attemptDelivery(input: AttemptInput): Promise<AttemptResult> {
    const row = (await db('webhook_deliveries as d')
      .join('events as e', 'e.id', 'd.event_id')
      .where('d.id', input.deliveryId)
      .first('d.id as delivery_id', 'd.endpoint_id', 'e.*')) as (EnvelopeSource & { endpoint_id: string }) | undefined;
    // The relay creates the row before it starts this workflow: a missing row is not a reason to give up.
    if (!row) throw new Error(`delivery ${input.deliveryId} not found (yet)`);
    const endpoint = (await db('webhook_endpoints').where({ id: row.endpoint_id }).first()) as EndpointRow;
    const slot = {
      holder: input.holder,
      endpointId: endpoint.id,
      ownerKey: endpoint.merchant_id ? `merchant:${endpoint.merchant_id}` : `partner:${endpoint.partner_id}`,
      perEndpoint: deps.webhooks.maxInFlightPerEndpoint,
      perOwner: deps.webhooks.maxInFlightPerMerchant,
    };
    if (!endpoint.enabled) {
      await db('webhook_deliveries')
        .where({ id: input.deliveryId, status: 'pending' })
        .update({ status: 'stopped', next_attempt_at: null });
      await releaseDeliverySlot(db, slot); // no longer waiting for one
      return { outcome: 'stopped', statusCode: null };
    }
    // The slot lapses by itself if this worker dies: the whole exchange, plus time for the bookkeeping.
    if (!(await acquireDeliverySlot(db, { ...slot, ttlMs: deps.webhooks.timeoutMs + 60_000 }))) {
      return { outcome: 'busy', statusCode: null };
    }
    let result: AttemptResult;
    let wake: string[] = [];
    try {
      result = await attemptWithSlot(input, row, endpoint);
    } finally {
      // On success and on error alike; if even this fails, the slot expires by itself.
      wake = await releaseDeliverySlot(db, slot).catch((err: unknown) => {
        logger.warn({ err, deliveryId: input.deliveryId }, 'could not release a webhook attempt slot');
        return [];
      });
    }
    return { ...result, wake };
  }

  async function attemptWithSlot(input: AttemptInput, row: EnvelopeSource, endpoint: EndpointRow) {
    const sent = await sendEnvelope(deps, {
      deliveryId: input.deliveryId,
      attempt: input.attempt,
      envelope: envelopeOf(row, input.isResent),
      endpoint,
      testEvent: row.is_test_event === true,
      refused: await destinationProblem(new URL(endpoint.url), deps.webhooks.allowPrivateNetworks),
    });
    await recordAttempt(db, {
      deliveryId: input.deliveryId,
      attempt: input.attempt,
      isResent: input.isResent,
      startedAt: new Date(input.at), // workflow time: the log shows the schedule as run
      ...sent,
      nextAttemptAt: input.nextAttemptAt ? new Date(input.nextAttemptAt) : null,
    });
    if (sent.succeeded) {
      await streak.succeeded(endpoint.id);
      return { outcome: 'delivered' as const, statusCode: sent.statusCode };
    }
    await streak.failed(endpoint, new Date(input.at));
    return { outcome: 'failed' as const, statusCode: sent.statusCode };
  }

  return { attemptDelivery, deliverDue: createDeliverDue(deps) };
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;
