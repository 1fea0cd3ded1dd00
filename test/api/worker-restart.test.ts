import { randomUUID } from 'node:crypto';
import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import { listOrderEvents } from '../../src/db/repositories/events';
import { eventually } from '../helpers/eventually';
import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { orderRow } from '../helpers/order-row';
import { shared } from '../helpers/shared-env';
import { startTestStack, type TestStack } from '../helpers/stack';
import { killWorker, startWorkerProcess } from '../helpers/worker-process';

/**
 * The worker as production runs it: its own process (src/worker.ts), killed with SIGKILL (no
 * graceful drain), then replaced by a new one. Everything durable must survive: a pending
 * capture and a rescue window whose timer fires while no worker is alive.
 */
describe('a worker killed and restarted mid-rescue loses nothing', () => {
  jest.setTimeout(120_000);
  let stack: TestStack;
  const output: string[] = [];

  beforeAll(async () => {
    stack = await startTestStack({ inProcessWorker: false });
  });
  afterAll(async () => {
    await stack?.stop();
    await appendFile(path.join(shared('logDir'), `worker-${process.pid}.log`), output.join(''));
  });

  it('completes a capture sent while the worker was dead, and expires an order whose window closed meanwhile', async () => {
    const merchant = await seedMerchant(stack.db);
    const token = await accessToken(stack.baseUrl, await seedKey(stack.db, merchant));
    const api = async (method: string, url: string, body?: unknown) => {
      const res = await fetch(`${stack.baseUrl}${url}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    await api('PUT', `/v1/merchants/${merchant.mid}/settings`, { mitEvaluation: 'sync' });
    const syncMit = (seconds: number) => ({
      idempotencyKey: randomUUID(),
      externalOrderId: `renewal-${randomUUID()}`,
      isMIT: true,
      isRecurring: true,
      subscription: { intervalCount: 1 },
      expiryDateUtc: new Date(Date.now() + seconds * 1000).toISOString(),
      transaction: { amount: 4900, currency: 'EUR', responseCode: '05' },
      paymentMethod: { cardNumber: '4111111111111111', expiryMonth: 12, expiryYear: 2090 },
    });

    const first = await startWorkerProcess(stack, output);
    const toCapture = await api('POST', '/v1/evaluate', syncMit(120));
    const toExpire = await api('POST', '/v1/evaluate', syncMit(3));
    expect([toCapture.body.outcome, toExpire.body.outcome]).toEqual(['CAPTUREREQUIRED', 'CAPTUREREQUIRED']);

    await killWorker(first);
    const captureBody = { idempotencyKey: randomUUID(), orderId: toCapture.body.orderId };
    const capture = api('POST', '/v1/capture', captureBody); // in flight while no worker runs
    // The second order's window closes with no worker alive: its timer fires on the Temporal server,
    // and the workflow task that handles it waits for a worker.
    const { workflow_id: expiringWorkflow } = await orderRow(stack.db, String(toExpire.body.orderId));
    await eventually(
      async () => (await stack.client.workflow.getHandle(expiringWorkflow).fetchHistory()).events ?? [],
      (events) => events.some((e) => e.timerFiredEventAttributes),
      { describe: `the rescue window timer of ${expiringWorkflow} to fire while no worker runs`, intervalMs: 250 },
    );

    const second = await startWorkerProcess(stack, output);
    try {
      // Answered once the new worker runs, or, if the restart outlasted the API's 20 s deadline,
      // 503 503010 (nothing decided) or 500 500010 (taken up, not finished): retried with the
      // same key, as documented, it completes.
      let captured = await capture;
      if (captured.status !== 200) {
        expect([captured.status, (captured.body.error as { id: string }).id]).toEqual(
          captured.status === 503 ? [503, '503010'] : [500, '500010'],
        );
        captured = await api('POST', '/v1/capture', captureBody);
      }
      expect(captured.status).toBe(200);
      expect(captured.body).toMatchObject({ status: 'APPROVED', orderStatus: 7, orderStatusName: 'Completed' });
      const names = async (orderId: unknown) => (await listOrderEvents(stack.db, orderId as string)).map((e) => e.name);
      expect(await names(toCapture.body.orderId)).toEqual(['order.capturerequired', 'order.completed']);

      const expired = await eventually(
        () => api('GET', `/v1/orders/${toExpire.body.orderId}`),
        (order) => order.body.status === 2,
        { describe: 'the order whose window closed to be Cancelled by the new worker', intervalMs: 200 },
      );
      expect(expired.body).toMatchObject({ status: 2, statusName: 'CANCELLED' });
      expect(await names(toExpire.body.orderId)).toEqual(['order.capturerequired', 'order.expired']);
    } finally {
      second.kill('SIGTERM');
      await new Promise((r) => second.once('exit', r));
    }
  });
});
