import * as wf from '@temporalio/workflow';
import type { WebhookActivities } from '../activities/webhooks';
import { DELIVERY_OFFSETS_MS } from '../domain/webhooks/retry-schedule';

export interface WebhookDeliveryInput {
  deliveryId: string;
  /** A manual resend: every attempt carries IsResent true. */
  resend: boolean;
}

// An attempt's HTTP failure is a result, not an error; only infrastructure errors are retried here.
// A local activity: an attempt is bounded (10 s HTTP timeout), and skipping the round trip through
// the server's activity queue took a 1,000-event fan-out from 60 to 75-81 deliveries/s (docs/benchmarks.md).
const { attemptDelivery } = wf.proxyLocalActivities<WebhookActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 10 },
});

/**
 * Delivers one event to one endpoint: attempts on the documented schedule (docs/webhooks.md)
 * until a 2xx, until the endpoint is disabled, or until the schedule ends. Durable: a worker
 * restart resumes the schedule where it was. Every attempt after the first carries IsResent true;
 * the envelope's IdempotencyKey (the delivery id) never changes.
 */
export async function webhookDeliveryWorkflow(
  input: WebhookDeliveryInput,
): Promise<{ outcome: string; attempts: number }> {
  const started = Date.now();
  let attempt = 0;
  for (let i = 0; i < DELIVERY_OFFSETS_MS.length; i++) {
    const due = started + (DELIVERY_OFFSETS_MS[i] as number);
    if (due > Date.now()) await wf.sleep(due - Date.now());
    attempt += 1;
    const next = DELIVERY_OFFSETS_MS[i + 1];
    const result = await attemptDelivery({
      deliveryId: input.deliveryId,
      attempt,
      isResent: input.resend || attempt > 1,
      at: new Date().toISOString(),
      nextAttemptAt: next === undefined ? null : new Date(started + next).toISOString(),
    });
    if (result.outcome !== 'failed') return { outcome: result.outcome, attempts: attempt };
  }
  return { outcome: 'failed', attempts: attempt };
}
