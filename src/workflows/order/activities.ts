import * as wf from '@temporalio/workflow';
import type { OrderActivities } from '../../activities/orders';
import type { ProcessorActivities } from '../../activities/processor';
import type { RetryBudgetActivities } from '../../activities/retry-budget';
import { FAILURE } from '../../domain/orders/failures';

/**
 * How the order workflow reaches its activities (docs/architecture.md, "Money invariants").
 *
 * Our own database runs as local activities: short, idempotent (ids derived from the order and
 * its version), so a re-run after a lost workflow task rewrites the same rows. Persistence is
 * retried until it succeeds, except when Postgres refuses the data itself.
 *
 * The processor runs as ordinary activities: the decision to move money is durable in the
 * history before the money moves, and each call carries an idempotency key derived from the
 * command, so it can never run twice with different effects.
 */
const NEVER_RETRIED = [FAILURE.persistenceRejected];

export const store = wf.proxyLocalActivities<OrderActivities & RetryBudgetActivities>({
  startToCloseTimeout: '10s',
  retry: {
    initialInterval: '200ms',
    backoffCoefficient: 2,
    maximumInterval: '30s',
    nonRetryableErrorTypes: NEVER_RETRIED,
  },
});

/** Capture, void and refund: idempotent by key, so retried until the processor answers. */
export const processor = wf.proxyActivities<ProcessorActivities>({
  startToCloseTimeout: '15s',
  retry: {
    initialInterval: '500ms',
    backoffCoefficient: 2,
    maximumInterval: '1m',
    nonRetryableErrorTypes: NEVER_RETRIED,
  },
});

/**
 * An unanswered charge sent again to settle it, with nobody waiting: bounded (about 25 minutes),
 * since a processor that stored a failure under the key (Stripe replays a 500) answers it for as
 * long as it keeps the key.
 */
export const processorSettling = wf.proxyActivities<ProcessorActivities>({
  startToCloseTimeout: '15s',
  retry: {
    initialInterval: '1s',
    backoffCoefficient: 2,
    maximumInterval: '5m',
    maximumAttempts: 12,
    nonRetryableErrorTypes: NEVER_RETRIED,
  },
});

/** The charge a caller waits on (CIT, Sync MIT, a passed challenge): bounded, then "try again". */
export const processorWhileWaiting = wf.proxyActivities<ProcessorActivities>({
  startToCloseTimeout: '10s',
  retry: { initialInterval: '300ms', backoffCoefficient: 2, maximumAttempts: 3, nonRetryableErrorTypes: NEVER_RETRIED },
});
