import { chargesToReconcile } from '../db/repositories/charges';
import { findMerchantOrderByExternalId } from '../db/repositories/orders';
import type { EvaluateInput, EvaluateResult } from '../domain/orders/contracts';
import { orderWorkflowId } from '../domain/orders/workflow-ids';
import type { OrderDeps } from './deps';
import { AFTER_UNEVALUATED_RUN, CLOSED } from './order-client';

/**
 * An evaluate that found the order's workflow closed with no order in the read model: that run
 * never decided an order (its first evaluate was turned away after its caller's deadline and nobody
 * retried within the hour it waits, or an operator ended it). The externalOrderId is then free and
 * this evaluate starts it afresh under a new orderId, rather than failing on the closed run for
 * ever, once the closed run's charges are reconciled from its charges ledger rows: a charge that
 * may have moved money (its answer not recorded, or an approval no order holds) is sent again
 * under its key and given back (src/workflows/charge-reconciliation.ts), since the new run's
 * charges have other keys. A charge the processor still will not settle keeps the id closed
 * (the evaluate then fails `internal_error`, docs/runbook.md).
 * Nothing is locked around the workflow calls: two evaluates racing here reconcile once (one
 * reconciliation workflow per run) and start one run, or attach to it (Update-With-Start,
 * USE_EXISTING); one that starts another run after the first decided an order is refused by the
 * ledger before it charges (the intent of an orderId that is not its externalOrderId's order:
 * ExternalOrderTaken) and answered from that order.
 */
export async function evaluateAfterUnevaluatedRun(
  deps: Pick<OrderDeps, 'db' | 'workflows'>,
  owner: { merchantId: string; partnerId: string; isTestMode: boolean },
  externalOrderId: string,
  input: EvaluateInput,
): Promise<EvaluateResult | typeof CLOSED> {
  if (await findMerchantOrderByExternalId(deps.db, owner.merchantId, externalOrderId)) return CLOSED;
  const latest = await deps.workflows.closedRuns.latestRun(orderWorkflowId(owner.merchantId, externalOrderId));
  // Started again meanwhile by another evaluate: this one is sent to that run.
  if (latest.running) return deps.workflows.evaluate(owner, externalOrderId, input);
  if (!latest.orderId) return CLOSED; // its charges cannot be told: left to an operator
  const charges = await chargesToReconcile(deps.db, owner.merchantId, latest.orderId);
  if (
    charges.length &&
    !(await deps.workflows.closedRuns.reconcileCharges({ merchantId: owner.merchantId, orderId: latest.orderId }))
  )
    return CLOSED;
  return deps.workflows.evaluate(owner, externalOrderId, input, AFTER_UNEVALUATED_RUN);
}
