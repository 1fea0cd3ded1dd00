import type { WebhookActivityDeps } from './webhook-attempt';
import { createDeliverDue } from './webhook-deliver-due';

export type { WebhookActivityDeps } from './webhook-attempt';
export type { DeliverDueInput, DeliverDueResult } from './webhook-deliver-due';

/**
 * Activities of webhook delivery: `deliverDue`, the per-endpoint workflow's batch of due
 * deliveries (webhook-deliver-due.ts; docs/webhooks.md, "Delivery").
 */
export function createWebhookActivities(deps: WebhookActivityDeps) {
  return { deliverDue: createDeliverDue(deps) };
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;
