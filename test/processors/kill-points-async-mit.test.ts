import { randomUUID } from 'node:crypto';
import { FAULT_POINTS, type FaultPoint } from '../../src/activities/fault-points';
import { eventually } from '../helpers/eventually';
import { CARDS } from './harness/cards';
import { everyChargeShown, type KillBed, onlyCharge, ROW_AT_KILL, startKillBed } from './harness/kill-points';

/**
 * The kill-point matrix (issue 35) for an async MIT order's scheduled retry charge: the worker
 * SIGKILLs itself at each point of the charge the +1 minute retry timer starts (after its intent
 * row, after Stripe answered, after the answer is recorded), and a new worker starts. The evaluate
 * was answered SUBMITTED long before, so retrying it means nothing; the two variants are: the
 * retry resumes on the new worker with nobody acting (the charge activity re-run under its key),
 * or the merchant cancels the order meanwhile (the cancel waits for the retry in flight, then is
 * refused: the order was rescued). The timer runs in real time on the dev server (the
 * time-skipping server lacks the API's Update-With-Start and does not skip time for a worker in
 * another process): these cases are the matrix's slowest.
 */
describe('the worker dies at each point of an async MIT retry charge', () => {
  const nextYear = new Date().getUTCFullYear() + 1;
  const VARIANTS = ['the retry resumes', 'the merchant cancels meanwhile'] as const;

  // Each kill point on a bed of its own (API, database, task queue, worker process, Stripe),
  // the three at once: a case is mostly the wait for its real +1 minute retry.
  it.concurrent.each(FAULT_POINTS.map((point) => [point]))(
    'killed at %s, the retry resuming or the merchant cancelling: charged once, and the order shows it',
    async (point) => {
      const bed = await startKillBed(`kill-points-async-mit-${point}`);
      try {
        await bed.startWorker(); // takes the first case's evaluate
        for (const variant of VARIANTS) await killedRetry(bed, point, variant);
      } finally {
        await bed.stop();
      }
    },
    600_000,
  );

  async function killedRetry(bed: KillBed, point: FaultPoint, variant: (typeof VARIANTS)[number]) {
    const chargesBefore = bed.network.charges(CARDS.approves);
    // The previous case's worker takes the evaluate; the armed one starts while the minute runs.
    const submitted = await bed.api('POST', '/v1/evaluate', {
      idempotencyKey: randomUUID(),
      externalOrderId: `kill-mit-${randomUUID()}`,
      transaction: { amount: 1999, currency: 'USD', responseCode: '51' },
      paymentMethod: { cardNumber: CARDS.approves, expiryMonth: 12, expiryYear: nextYear },
      isMIT: true,
      isRecurring: true,
      subscription: { intervalCount: 1 },
    });
    expect(submitted.body).toMatchObject({ outcome: 'SUBMITTED', orderStatus: 4 });
    const { orderId } = submitted.body;
    await bed.killWorkers();
    const worker = await bed.startWorker(point);
    await bed.died(worker, 120_000); // the first retry is due at +1 minute: its charge kills the worker
    const row = await onlyCharge(bed, { order_id: orderId });
    expect(row).toMatchObject({ kind: 'sale', attempt: 1, state: ROW_AT_KILL[point] });
    expect((await bed.api('GET', `/v1/orders/${orderId}`)).body).toMatchObject({ status: 4 });

    await bed.startWorker();
    if (variant === 'the merchant cancels meanwhile') {
      // One command at a time per order: the cancel waits for the retry in flight, whose charge
      // re-runs under its key and rescues the order; the cancel is then refused, never answered
      // Cancelled over a charge that stands.
      const cancelled = await bed.api('POST', `/v1/orders/${orderId}/cancel`, {});
      expect([cancelled.status, cancelled.body.error?.id]).toEqual([409, '409005']);
    }
    // Rescued by the retry's one charge, whichever worker sent it: Completed, as the ledger says.
    const settled = await eventually(
      () => bed.api('GET', `/v1/orders/${orderId}`),
      (a) => a.status === 200 && a.body.status === 7,
      { describe: `order ${orderId} to be rescued`, timeoutMs: 90_000, intervalMs: 250 },
    );
    expect(settled.body).toMatchObject({ statusName: 'SUCCESS', amounts: { captured: 1999 } });
    const { events } = await bed.moneyAgrees(orderId);
    expect(events).toEqual(['order.completed']);
    expect(bed.network.charges(CARDS.approves)).toBe(chargesBefore + 1);
    await everyChargeShown(bed);
  }
});
