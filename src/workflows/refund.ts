import * as wf from '@temporalio/workflow';
import type { ProcessorActivities } from '../activities/processor';
import type { RefundActivities } from '../activities/refunds';
import type { RefundRequest, RefundResult } from '../domain/orders/contracts';
import { FAILURE } from '../domain/orders/failures';
import { failureTypeOf } from './order/charging';

// The ledger steps touch only our database and are idempotent by the refund id: local activities,
// retried until Postgres answers (never when it refuses the data itself).
const ledger = wf.proxyLocalActivities<RefundActivities>({
  startToCloseTimeout: '10s',
  retry: {
    initialInterval: '200ms',
    backoffCoefficient: 2,
    maximumInterval: '30s',
    nonRetryableErrorTypes: [FAILURE.persistenceRejected],
  },
});
// The processor refund moves money: an ordinary activity, keyed by the refund id, retried until it answers.
const processor = wf.proxyActivities<ProcessorActivities>({
  startToCloseTimeout: '15s',
  retry: { initialInterval: '500ms', backoffCoefficient: 2, maximumInterval: '1m' },
});

/**
 * One refund of a completed order (id `refund:{orderId}:{idempotencyKey|full}`). The ledger
 * reserves it under the order row's lock, which is what keeps the refunded total within the
 * captured amount however many refunds run at once; then the processor refunds, with the refund
 * id as its idempotency key; then the ledger settles it and writes order.refunded. The same
 * refund asked again finds its ledger row and answers it (replayed) without acting again.
 */
export async function refundWorkflow(request: RefundRequest): Promise<RefundResult> {
  const reservation = await ledger.reserveRefund(request);
  if (reservation.kind === 'refused') return { ...reservation, kind: 'refused' };
  // Reached the ledger after its caller was answered 503 (no worker meanwhile): not run, so that
  // answer ("nothing was decided") stays true. The ledger decides it, under the order's lock.
  if (reservation.kind === 'caller_gone') return reservation;
  let { refund, order } = reservation;
  const ids = { refundId: refund.id, orderId: request.orderId, merchantId: request.merchantId };
  if (refund.state === 'pending') {
    try {
      const { processorReference } = await processor.processorRefund({
        refundId: refund.id,
        authorizationId: order.authorizationId,
        amount: refund.amount,
        currency: order.currency,
      });
      ({ refund, order } = await ledger.settleRefund({ ...ids, processorReference }));
    } catch (err) {
      // Refused for good (a disputed or already refunded charge): released, and refused.
      if (failureTypeOf(err) !== FAILURE.processorRefused) throw err;
      ({ refund, order } = await ledger.releaseRefund(ids));
    }
  }
  // Refused by the processor, now or when first asked: the answer stands.
  if (refund.state === 'failed') return { kind: 'refused', reason: 'refund_refused', status: order.status };
  return {
    kind: 'refunded',
    transactionId: refund.id,
    amount: refund.amount,
    refundedAmount: order.refundedAmount,
    status: order.status,
    replayed: reservation.kind === 'existing',
  };
}
