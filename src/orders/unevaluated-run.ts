import { findMerchantOrderByExternalId } from '../db/repositories/orders';
import type { EvaluateInput, EvaluateResult } from '../domain/orders/contracts';
import type { OrderDeps } from './deps';
import { AFTER_UNEVALUATED_RUN, CLOSED } from './order-client';

/**
 * An evaluate that found the order's workflow closed with no order in the read model: that run
 * never took an evaluate up (its first one was turned away after the caller's 503, and nobody
 * retried within the hour it waits) or was ended by an operator before one. No order was made,
 * so the externalOrderId is free and this evaluate starts it afresh, rather than failing on the
 * closed run for ever. Under a lock on the id, and only while it still has no order: two
 * evaluates racing here start one run (the second attaches to it, or answers from its order).
 */
export async function evaluateAfterUnevaluatedRun(
  deps: Pick<OrderDeps, 'db' | 'workflows'>,
  owner: { merchantId: string; partnerId: string; isTestMode: boolean },
  externalOrderId: string,
  input: EvaluateInput,
): Promise<EvaluateResult | typeof CLOSED> {
  if (await findMerchantOrderByExternalId(deps.db, owner.merchantId, externalOrderId)) return CLOSED;
  return deps.db.transaction(async (trx) => {
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`order-run:${owner.merchantId}:${externalOrderId}`]);
    const made = await findMerchantOrderByExternalId(trx, owner.merchantId, externalOrderId);
    return deps.workflows.evaluate(owner, externalOrderId, input, made ? undefined : AFTER_UNEVALUATED_RUN);
  });
}
