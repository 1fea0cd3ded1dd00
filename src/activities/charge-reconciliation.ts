import { randomUUID } from 'node:crypto';
import type { Db } from '../db/knex';
import { chargesToReconcile, findCharge } from '../db/repositories/charges';
import { KEY_TRUSTED_MS } from '../domain/orders/charge-attempts';
import type { ProcessorActivities } from './processor';
import { storeStep } from './store-failures';

/**
 * Whose charges to reconcile: an order's (orderId), those after its attempt `afterAttempt` when
 * the order exists and holds those (a declined order's new attempt: src/orders/new-attempt.ts).
 */
export interface ChargesToReconcile {
  merchantId: string;
  orderId: string;
  afterAttempt?: number;
}

/** What reconciling one charge found: given back, never charged, or still not known. */
export type Reconciled = 'undone' | 'not_charged' | 'unsettled';

/**
 * The reconciliation of a run that closed before its first evaluate was decided, from its charges
 * ledger rows (src/workflows/charge-reconciliation.ts): no order holds their money, so a charge
 * whose answer is not known is sent again under its key (the processor answers a repeated key
 * with its first answer; if the first never reached it, it charges now), and an approval is given
 * back (voided, or refunded in full), each call through the ledger. Only while the key is trusted
 * (KEY_TRUSTED_MS after its first send): later, the charge stays unsettled, for an operator.
 */
export function createChargeReconciliationActivities(deps: { db: Db }, processor: ProcessorActivities) {
  return {
    /** The ids of the run's charges that may have moved money (oldest attempt first). */
    async chargesToReconcile(input: ChargesToReconcile): Promise<string[]> {
      const rows = await storeStep('read charges to reconcile', () =>
        chargesToReconcile(deps.db, input.merchantId, input.orderId, input.afterAttempt),
      );
      return rows.map((r) => r.id);
    },

    async reconcileCharge(input: { merchantId: string; chargeId: string }): Promise<Reconciled> {
      const row = await storeStep('read charge', () => findCharge(deps.db, input.merchantId, input.chargeId));
      if (!row || row.state === 'reversed') return row ? 'undone' : 'not_charged';
      let authorizationId = row.state === 'answered' && row.result === 'approved' ? row.processor_reference : null;
      if (!authorizationId) {
        if (!row.request) return 'unsettled';
        // A key the processor may have forgotten would charge afresh: left to an operator instead.
        if (Date.now() - row.created_at.getTime() > KEY_TRUSTED_MS) return 'unsettled';
        const answer = await processor.processorCharge({
          idempotencyKey: row.id,
          orderId: row.order_id,
          externalOrderId: row.external_order_id,
          merchantId: row.merchant_id,
          cardToken: row.request.cardToken,
          amount: row.amount,
          currency: row.currency,
          mode: row.request.mode,
          flow: row.request.flow,
          attempt: row.attempt,
          threeDSecure: row.request.threeDSecure,
          settling: true,
          ...(row.request.challengeCompleted !== undefined
            ? { challengeCompleted: row.request.challengeCompleted }
            : {}),
        });
        if (answer.result === 'unavailable') return 'unsettled';
        if (answer.result !== 'approved') return 'not_charged';
        authorizationId = answer.authorizationId;
      }
      const kind = row.kind === 'authorization' ? 'void' : 'reversal';
      const call = {
        key: randomUUID(), // a new row's; a re-run finds the row this void or reversal already has
        orderId: row.order_id,
        merchantId: row.merchant_id,
        externalOrderId: row.external_order_id,
        kind,
        attempt: row.attempt,
        amount: row.amount,
        currency: row.currency,
      } as const;
      if (kind === 'void') await processor.processorVoid({ call, authorizationId });
      else await processor.processorReverse({ call, authorizationId });
      return 'undone';
    },
  };
}

export type ChargeReconciliationActivities = ReturnType<typeof createChargeReconciliationActivities>;
