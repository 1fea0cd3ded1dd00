import * as wf from '@temporalio/workflow';
import type { WebhookActivities } from '../activities/webhooks';

export interface WebhookEndpointInput {
  endpointId: string;
}

/** The workflow id of an endpoint's delivery workflow: one per endpoint, started or signalled by its id. */
export function endpointWorkflowId(endpointId: string): string {
  return `webhook-endpoint:${endpointId}`;
}

/** Sent when deliveries were added to the endpoint (fan-out, resend, test event, the relay's sweep). */
export const deliveriesAddedSignal = wf.defineSignal('deliveriesAdded');

/** With nothing pending for this long the workflow completes; the next signal-with-start begins a new run. */
const IDLE_MS = 10 * 60_000;
/** The shortest wait when deliveries are due but none could be claimed. */
const MIN_RECHECK_MS = 1_000;
/** Continue-as-new past this many history events (or when the server suggests it): histories stay small. */
const HISTORY_BOUND = 2_000;

// Infrastructure errors (the database, a dying worker) are retried without end: the endpoint's
// deliveries are in Postgres and must not be abandoned. The heartbeat notices a dead worker in
// seconds; its claimed rows are claimed again when their lease ends.
const { deliverDue } = wf.proxyActivities<WebhookActivities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * Delivers an endpoint's webhooks (docs/webhooks.md, "Delivery"). The schedule lives in Postgres
 * (each delivery row's next due time); this workflow only drives it: it asks the `deliverDue`
 * activity to attempt what is due now (workflow time, so time-skipping tests run the real
 * schedule), then waits for the next due time or a `deliveriesAdded` signal. One hanging endpoint
 * thus costs one activity holding a few sockets, not a workflow and a timer per delivery.
 */
export async function webhookEndpointWorkflow(
  input: WebhookEndpointInput,
): Promise<{ delivered: number; failed: number; stopped: number }> {
  let added = false;
  wf.setHandler(deliveriesAddedSignal, () => {
    added = true;
  });
  const totals = { delivered: 0, failed: 0, stopped: 0 };
  for (;;) {
    added = false; // a signal from now on means "added after this call looked"
    const result = await deliverDue({ endpointId: input.endpointId, now: new Date(Date.now()).toISOString() });
    totals.delivered += result.delivered;
    totals.failed += result.failed;
    totals.stopped += result.stopped;
    const info = wf.workflowInfo();
    if (info.continueAsNewSuggested || info.historyLength > HISTORY_BOUND) {
      await wf.continueAsNew<typeof webhookEndpointWorkflow>(input);
    }
    if (added) continue;
    const due = result.nextDueAt === null ? null : Date.parse(result.nextDueAt);
    if (due === null) {
      if (!(await wf.condition(() => added, IDLE_MS))) return totals;
    } else {
      // Due already but nothing was done (another claimer holds the rows): not a busy loop.
      const idleCall = result.delivered + result.failed + result.stopped === 0;
      const wait = Math.max(due - Date.now(), idleCall ? MIN_RECHECK_MS : 0);
      if (wait > 0) await wf.condition(() => added, wait);
    }
  }
}
