import * as wf from '@temporalio/workflow';
import type { ProcessorActivities } from '../../src/activities/processor';
import type { ChargeInput } from '../../src/domain/orders/contracts';
import { FAILURE } from '../../src/domain/orders/failures';
import * as production from '../../src/workflows/order/activities';
import { LOCAL_CHARGE_PREFIX } from './cit-charge-marker';

/**
 * Bench-only (`npm run bench:evaluate`, row "CIT evaluate, local charge"): the charge a caller
 * waits on made as a local activity instead of an ordinary one, beside today's shape in the same
 * run. The bench's workflow bundle takes this module in place of src/workflows/order/activities.ts
 * (scripts/bench/cit-charge-bundle.ts); production bundles never see it. The shape follows the
 * order's externalOrderId (LOCAL_CHARGE_PREFIX), which is in the evaluate's input and so in the history: deterministic
 * on replay.
 */
export const { store, processor, processorSettling } = production;

// The ordinary shape's bounds: 3 attempts of 10 s; the backoffs stay under localRetryThreshold
// (1 minute), so the attempts run within the workflow task, heartbeating it past 80% of its 10 s.
const local = wf.proxyLocalActivities<ProcessorActivities>({
  startToCloseTimeout: '10s',
  retry: {
    initialInterval: '300ms',
    backoffCoefficient: 2,
    maximumAttempts: 3,
    nonRetryableErrorTypes: [FAILURE.persistenceRejected],
  },
});

const processorCharge = (input: ChargeInput) =>
  input.externalOrderId.startsWith(LOCAL_CHARGE_PREFIX)
    ? local.processorCharge(input)
    : production.processorWhileWaiting.processorCharge(input);

export const processorWhileWaiting = new Proxy(production.processorWhileWaiting, {
  get: (target, name, receiver) => (name === 'processorCharge' ? processorCharge : Reflect.get(target, name, receiver)),
});
