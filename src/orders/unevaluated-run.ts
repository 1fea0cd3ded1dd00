import { findMerchantOrderByExternalId } from '../db/repositories/orders';
import { ApiError } from '../domain/errors';
import type { EvaluateInput, EvaluateResult } from '../domain/orders/contracts';
import { orderWorkflowId } from '../domain/orders/workflow-ids';
import type { OrderDeps } from './deps';
import { AFTER_UNEVALUATED_RUN, CLOSED } from './order-client';

/** How long an evaluate waits for another one restarting the same externalOrderId (then 409009). */
const RESTART_LOCK_TIMEOUT = '5s';

/**
 * An evaluate that found the order's workflow closed with no order in the read model: that run
 * never decided an order (its first evaluate was turned away after the caller's 503 and nobody
 * retried within the hour it waits, or an operator ended it). The externalOrderId is then free
 * and this evaluate starts it afresh, rather than failing on the closed run for ever, but only
 * when that run scheduled no activity, or settled the charge it sent before closing (voided or
 * refunded it, or found it declined: src/workflows/order/workflow.ts). The charge is an activity,
 * and a run that sent one may have charged under its orderId (the processor's answer lost), so a
 * new run under another orderId (another processor key) could charge twice. A run that closed
 * otherwise (terminated, or older code) stays closed (500, docs/runbook.md).
 * Under a lock on the id, re-checked under it: two evaluates racing here start one run (a waiter
 * finding the run its predecessor started still running attaches to it).
 */
export async function evaluateAfterUnevaluatedRun(
  deps: Pick<OrderDeps, 'db' | 'workflows'>,
  owner: { merchantId: string; partnerId: string; isTestMode: boolean },
  externalOrderId: string,
  input: EvaluateInput,
): Promise<EvaluateResult | typeof CLOSED> {
  if (await findMerchantOrderByExternalId(deps.db, owner.merchantId, externalOrderId)) return CLOSED;
  return deps.db.transaction(async (trx) => {
    await trx.raw(`set local lock_timeout = '${RESTART_LOCK_TIMEOUT}'`);
    await trx
      .raw('select pg_advisory_xact_lock(hashtext(?))', [`order-run:${owner.merchantId}:${externalOrderId}`])
      .catch((err: { code?: string }) => {
        throw err.code === '55P03' ? new ApiError('order_busy') : err; // lock_not_available
      });
    if (await findMerchantOrderByExternalId(trx, owner.merchantId, externalOrderId))
      return deps.workflows.evaluate(owner, externalOrderId, input);
    if (await deps.workflows.latestRunClosedWithChargeUnsettled(orderWorkflowId(owner.merchantId, externalOrderId)))
      return CLOSED;
    return deps.workflows.evaluate(owner, externalOrderId, input, AFTER_UNEVALUATED_RUN);
  });
}
