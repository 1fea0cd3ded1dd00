import { randomUUID } from 'node:crypto';
import { FAULT_POINTS, type FaultPoint } from '../../../src/activities/fault-points';
import type { ApiAnswer } from '../../helpers/api-client';
import { eventually } from '../../helpers/eventually';
import { CARDS } from './cards';
import { everyChargeShown, type KillBed, onlyCharge, ROW_AT_KILL, retryLater, startKillBed } from './kill-points';

/**
 * The kill-point matrix for the charge a CIT caller waits on (issue 35; docs/architecture.md,
 * "Money invariants"): the worker SIGKILLs itself after the charge's intent row is written, after
 * Stripe answered, or after the answer is recorded; a new worker starts; then the merchant either
 * retries the evaluate with the same idempotencyKey or never does and looks the order up later.
 * Every case: one PaymentIntent per attempt key, and the order, its events and the simulator agree.
 */
export function describeCitKillPoints(kind: 'sale' | 'authorization'): void {
  const authorize = kind === 'authorization';
  const settled = authorize
    ? { outcome: 'CAPTUREREQUIRED', status: 5, event: 'order.capturerequired' }
    : { outcome: 'APPROVED', status: 7, event: 'order.completed' };
  const nextYear = new Date().getUTCFullYear() + 1;

  describe(`the worker dies at each point of a CIT ${kind}`, () => {
    jest.setTimeout(180_000);
    let bed: KillBed;
    beforeAll(async () => {
      // The first evaluate's wait (500010 once the worker is dead) shortened from 20 s: the matrix is slow.
      bed = await startKillBed(`kill-points-cit-${kind}`, { apiEnv: { WORKFLOW_CALL_DEADLINE_MS: '8000' } });
    });
    afterAll(async () => {
      await bed?.stop();
    });

    const cases = FAULT_POINTS.flatMap((point) => [
      [point, 'retried'],
      [point, 'not retried'],
    ]) as Array<[FaultPoint, 'retried' | 'not retried']>;

    it.each(cases)('killed at %s, evaluate %s: charged once, and the order shows it', async (point, variant) => {
      await bed.killWorkers(); // the previous case's
      const chargesBefore = bed.network.charges(CARDS.approves);
      const worker = await bed.startWorker(point);
      const body = {
        idempotencyKey: randomUUID(),
        externalOrderId: `kill-${randomUUID()}`,
        transaction: { amount: 2500, currency: 'USD', responseCode: '51' },
        paymentMethod: { cardNumber: CARDS.approves, expiryMonth: 12, expiryYear: nextYear },
        ...(authorize ? { transactionType: 'AUTHORIZATION' } : {}),
      };
      const first = bed.api('POST', '/v1/evaluate', body);
      // The worker dies at the point; an answer while it still lives means the charge never reached it.
      await Promise.race([
        bed.died(worker),
        first.then((a) => {
          throw new Error(`evaluate answered before the worker died: ${a.status} ${a.text}`);
        }),
      ]);
      // The charge was under way: the outcome is not known yet (retry with the same key), never
      // "nothing was decided", which would let the merchant fall back to the decline.
      const failed = await first;
      expect([failed.status, failed.body.error?.id]).toEqual([500, '500010']);
      const row = await onlyCharge(bed, { external_order_id: body.externalOrderId });
      expect(row).toMatchObject({ kind, attempt: 1, state: ROW_AT_KILL[point] });

      await bed.startWorker();
      let answered: ApiAnswer;
      if (variant === 'retried') {
        answered = await eventually(
          async () => {
            const a = await bed.api('POST', '/v1/evaluate', body);
            if (retryLater(a) && a.headers.get('idempotent-replayed') === 'true')
              throw new Error(`a retryable answer was stored under the evaluate's key: ${a.status} ${a.text}`);
            return a;
          },
          (a) => !retryLater(a),
          { describe: 'the retried evaluate (same idempotencyKey) to be answered', timeoutMs: 90_000, intervalMs: 250 },
        );
        expect(answered.body).toMatchObject({ orderId: row.order_id, outcome: settled.outcome });
      } else {
        // Nobody retries: the order the charge belongs to is looked up later.
        answered = await eventually(
          () => bed.api('GET', `/v1/orders/${row.order_id}`),
          (a) => a.status === 200 && a.body.status === settled.status,
          { describe: `order ${row.order_id} to settle with no retry`, timeoutMs: 90_000, intervalMs: 250 },
        );
      }
      expect(answered.status).toBe(200);

      const { order, events } = await bed.moneyAgrees(row.order_id);
      expect(order).toMatchObject({ status: settled.status, outcome: settled.outcome });
      expect(events).toEqual([settled.event]);
      expect(order.attempts.map((a: { kind: string }) => a.kind)).toEqual([kind]);
      // Only the attempt key ever reached the simulator for this order: one charge, its replays.
      const requests = bed.network.requests.filter((r) => r.path === '/v1/payment_intents');
      expect(requests.filter((r) => r.idempotencyKey === row.id && !r.replayed)).toHaveLength(1);
      expect(bed.network.charges(CARDS.approves)).toBe(chargesBefore + 1);
      await everyChargeShown(bed);
    });
  });
}
