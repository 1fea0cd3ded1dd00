import * as wf from '@temporalio/workflow';
import type { AttemptResult, WebhookActivities } from '../activities/webhooks';
import { DELIVERY_OFFSETS_MS } from '../domain/webhooks/retry-schedule';

export interface WebhookDeliveryInput {
  deliveryId: string;
  /** A manual resend: every attempt carries IsResent true. */
  resend: boolean;
}

/**
 * Sent by a delivery that released an attempt slot of this delivery's endpoint or merchant
 * (docs/webhooks.md, "Isolation and limits"): the waiting delivery asks for a slot again at once.
 */
export const slotFreedSignal = wf.defineSignal('webhookSlotFreed');

/**
 * A delivery waiting for a slot also asks again on its own, in case a wake-up was lost (a worker
 * that died holding a slot sends none, its slot just expires; an attempt whose result was lost
 * took its picked waiters with it): first after 30 s, doubling up to 2 minutes, each with up to 20%
 * jitter. In a burst a lost wake-up then costs half a minute, not two; more frequent re-checks of
 * hundreds of waiters slowed other merchants' evaluates (bench:noisy-neighbour: p50 410 ms with a
 * 5 s first re-check, 118 ms with 30 s, 95 ms unloaded).
 */
const SLOT_RECHECK_FIRST_MS = 30_000;
const SLOT_RECHECK_MAX_MS = 2 * 60_000;

// An attempt's HTTP failure is a result, not an error; only infrastructure errors are retried here.
// An ordinary activity on the webhook task queue (its own worker and slots, apart from the order
// workflows), not a local activity: an attempt can hang for the whole HTTP deadline, and a local
// activity would hold the delivery's workflow task open (and heartbeating) all that time. The
// server round trip costs some fan-out throughput (docs/benchmarks.md); isolation is worth it.
const retry: wf.RetryPolicy = {
  initialInterval: '2s',
  backoffCoefficient: 2,
  maximumInterval: '1 minute',
  maximumAttempts: 10,
};
const { attemptDelivery: attemptActivity } = wf.proxyActivities<WebhookActivities>({
  startToCloseTimeout: '2 minutes',
  retry,
});
// Deliveries started before attempts became activities ran them as local activities: those keep
// doing so (their histories hold local activity markers), on the order worker that started them.
const legacy = wf.proxyLocalActivities<WebhookActivities>({ startToCloseTimeout: '2 minutes', retry });
const ATTEMPTS_AS_ACTIVITIES = 'webhook-attempts-as-activities';

/**
 * Delivers one event to one endpoint: attempts on the documented schedule (docs/webhooks.md)
 * until a 2xx, until the endpoint is disabled, or until the schedule ends. Durable: a worker
 * restart resumes the schedule where it was. Every attempt after the first carries IsResent true;
 * the envelope's IdempotencyKey (the delivery id) never changes.
 *
 * An attempt runs only with a slot (at most so many attempts in flight per endpoint and per
 * merchant, across all workers): without one the activity answers `busy` at once and the
 * delivery waits, durably, until a delivery that frees a slot signals it (or the re-check timer
 * fires), then asks again. Waiting is not an attempt: it is neither logged nor counted.
 */
export async function webhookDeliveryWorkflow(
  input: WebhookDeliveryInput,
): Promise<{ outcome: string; attempts: number }> {
  let slotFreed = false;
  wf.setHandler(slotFreedSignal, () => {
    slotFreed = true;
  });
  const holder = wf.workflowInfo().workflowId;
  const attemptDelivery = wf.patched(ATTEMPTS_AS_ACTIVITIES) ? attemptActivity : legacy.attemptDelivery;
  const started = Date.now();
  let attempt = 0;
  for (let i = 0; i < DELIVERY_OFFSETS_MS.length; i++) {
    const due = started + (DELIVERY_OFFSETS_MS[i] as number);
    if (due > Date.now()) await wf.sleep(due - Date.now());
    attempt += 1;
    const next = DELIVERY_OFFSETS_MS[i + 1];
    let result: AttemptResult;
    for (let recheck = SLOT_RECHECK_FIRST_MS; ; recheck = Math.min(recheck * 2, SLOT_RECHECK_MAX_MS)) {
      slotFreed = false; // a signal from now on means "a slot was freed after this request"
      result = await attemptDelivery({
        deliveryId: input.deliveryId,
        holder,
        attempt,
        isResent: input.resend || attempt > 1,
        at: new Date().toISOString(),
        nextAttemptAt: next === undefined ? null : new Date(Math.max(started + next, Date.now())).toISOString(),
      });
      await wakeWaiters(result.wake ?? []);
      if (result.outcome !== 'busy') break;
      await wf.condition(() => slotFreed, recheck + Math.floor(Math.random() * recheck * 0.2));
    }
    if (result.outcome !== 'failed') return { outcome: result.outcome, attempts: attempt };
  }
  return { outcome: 'failed', attempts: attempt };
}

/** Tells the deliveries the activity chose that a slot is free; one that has ended meanwhile is no error. */
async function wakeWaiters(workflowIds: string[]): Promise<void> {
  await Promise.all(
    workflowIds.map((id) =>
      wf
        .getExternalWorkflowHandle(id)
        .signal(slotFreedSignal)
        .catch(() => undefined),
    ),
  );
}
