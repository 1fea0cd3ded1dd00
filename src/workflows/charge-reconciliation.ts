import * as wf from '@temporalio/workflow';
import type { ChargeReconciliationActivities, ChargesToReconcile } from '../activities/charge-reconciliation';
import { FAILURE } from '../domain/orders/failures';

// Reading the ledger touches only our database: a local activity, retried until Postgres answers.
const ledger = wf.proxyLocalActivities<ChargeReconciliationActivities>({
  startToCloseTimeout: '10s',
  retry: {
    initialInterval: '200ms',
    backoffCoefficient: 2,
    maximumInterval: '5s',
    nonRetryableErrorTypes: [FAILURE.persistenceRejected],
  },
});
// Sending a charge again and giving it back moves money: an ordinary activity, keyed by the ledger
// rows. Bounded (about a minute): a processor that will not say leaves the charge unsettled.
const processor = wf.proxyActivities<ChargeReconciliationActivities>({
  startToCloseTimeout: '30s',
  retry: {
    initialInterval: '1s',
    backoffCoefficient: 2,
    maximumInterval: '10s',
    maximumAttempts: 5,
    nonRetryableErrorTypes: [FAILURE.persistenceRejected],
  },
});

/**
 * Reconciles, from its charges ledger rows, an order's run that closed before its first evaluate
 * was decided (no order holds their money): each charge whose answer is not known is sent again
 * under its key and an approval given back (src/activities/charge-reconciliation.ts). `settled`:
 * none of them may still stand, so the externalOrderId may start afresh under another orderId
 * (src/orders/unevaluated-run.ts), or a declined order take a new attempt (`afterAttempt`: the
 * attempts it did not record, src/orders/new-attempt.ts). Id `reconcile-charges:{orderId}`: one
 * at a time per order.
 */
export async function chargeReconciliationWorkflow(input: ChargesToReconcile): Promise<{ settled: boolean }> {
  let settled = true;
  for (const chargeId of await ledger.chargesToReconcile(input)) {
    const outcome = await processor
      .reconcileCharge({ merchantId: input.merchantId, chargeId })
      .catch((err: unknown) => {
        if (wf.isCancellation(err)) throw err;
        return 'unsettled' as const;
      });
    if (outcome === 'unsettled') settled = false;
  }
  if (!settled) wf.log.error('a closed run still has a charge the processor will not settle (docs/runbook.md)', {});
  return { settled };
}
