import type { Db } from '../db/knex';
import { type Reservation, releaseRefund, reserveRefund, settleRefund } from '../db/repositories/refunds';
import { derivedUuid } from '../domain/ids';
import type { RefundRequest } from '../domain/orders/contracts';
import { storeStep } from './store-failures';

/** The refund ledger's steps (src/db/repositories/refunds.ts), for the refund workflow. */
export function createRefundActivities(deps: { db: Db }) {
  return {
    async reserveRefund(input: RefundRequest): Promise<Reservation> {
      return storeStep('reserve refund', () => reserveRefund(deps.db, input, new Date()));
    },

    async settleRefund(input: { refundId: string; orderId: string; merchantId: string; processorReference: string }) {
      const eventId = derivedUuid('event', 'order.refunded', input.refundId);
      return storeStep('settle refund', () => settleRefund(deps.db, { ...input, eventId }, new Date()));
    },

    /** The processor refused the refund for good: it fails and its reservation is released. */
    async releaseRefund(input: { refundId: string; orderId: string; merchantId: string }) {
      return storeStep('release refund', () => releaseRefund(deps.db, input, new Date()));
    },
  };
}

export type RefundActivities = ReturnType<typeof createRefundActivities>;
