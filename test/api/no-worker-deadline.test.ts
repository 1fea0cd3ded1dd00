import { randomUUID } from 'node:crypto';
import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import { listOrderEvents } from '../../src/db/repositories/events';
import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { shared } from '../helpers/shared-env';
import { startTestStack, type TestStack } from '../helpers/stack';
import { startWorkerProcess } from '../helpers/worker-process';

/**
 * Issue 13's bounded wait: with no worker running, an evaluate cannot be decided. It must answer
 * 503 503010 with Retry-After within the API's workflow deadline (WORKFLOW_CALL_DEADLINE_MS, set
 * short here), release its idempotency claim, and the same request (same key) must succeed once a
 * worker is back, as one order.
 */
const DEADLINE_MS = 3_000;
/** Margin over the deadline for the token check, the claim and its release on a busy shared machine. */
const ANSWER_MARGIN_MS = 2_000;

describe('an evaluate with no worker', () => {
  jest.setTimeout(120_000);
  let stack: TestStack;
  const output: string[] = [];

  beforeAll(async () => {
    stack = await startTestStack({ inProcessWorker: false, env: { WORKFLOW_CALL_DEADLINE_MS: String(DEADLINE_MS) } });
  });
  afterAll(async () => {
    await stack?.stop();
    await appendFile(path.join(shared('logDir'), `worker-${process.pid}.log`), output.join(''));
  });

  it('answers 503 503010 within its deadline, releases the claim, and the same request succeeds once a worker is back', async () => {
    const merchant = await seedMerchant(stack.db);
    const token = await accessToken(stack.baseUrl, await seedKey(stack.db, merchant));
    const request = {
      idempotencyKey: randomUUID(),
      externalOrderId: `no-worker-${randomUUID()}`,
      transaction: { amount: 2500, currency: 'USD', responseCode: '51' },
      paymentMethod: { cardNumber: '4111111111111111', expiryMonth: 12, expiryYear: 2090 },
    };
    const evaluate = async () => {
      const res = await fetch(`${stack.baseUrl}/v1/evaluate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(request),
      });
      return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
    };

    const sentAt = Date.now();
    const unavailable = await evaluate();
    const tookMs = Date.now() - sentAt;
    expect(unavailable.status).toBe(503);
    expect(unavailable.body.error).toMatchObject({ id: '503010' });
    expect(unavailable.headers.get('retry-after')).toBe('1');
    expect(tookMs).toBeGreaterThanOrEqual(DEADLINE_MS - 100); // it did wait for the workflow
    expect(tookMs).toBeLessThanOrEqual(DEADLINE_MS + ANSWER_MARGIN_MS);
    // The claim is released: no in-flight or stored answer under the key, so a retry runs afresh.
    const claims = await stack.db('idempotency_keys').where({ merchant_id: merchant.mid, key: request.idempotencyKey });
    expect(claims).toEqual([]);
    // Nothing was decided: no order in the read model.
    expect(await stack.db('orders').where({ merchant_id: merchant.mid })).toEqual([]);

    const worker = await startWorkerProcess(stack, output);
    try {
      const answered = await evaluate();
      expect(answered.status).toBe(200);
      expect(answered.body).toMatchObject({ status: 'APPROVED', orderStatusName: 'Completed' });
      expect(answered.headers.get('idempotent-replayed')).toBeNull();

      const orders = await stack.db('orders').where({ merchant_id: merchant.mid });
      expect(orders.map((o) => [o.id, o.external_order_id])).toEqual([
        [answered.body.orderId, request.externalOrderId],
      ]);
      const events = await listOrderEvents(stack.db, String(answered.body.orderId));
      expect(events.map((e) => e.name)).toEqual(['order.completed']);
      // One workflow run for the order, however many evaluates reached it.
      const runs = [];
      for await (const run of stack.client.workflow.list({ query: `WorkflowId = '${orders[0]?.workflow_id}'` })) {
        runs.push(run.runId);
      }
      expect(runs).toHaveLength(1);

      // And the retry's answer is now the stored one.
      const replayed = await evaluate();
      expect(replayed.status).toBe(200);
      expect(replayed.headers.get('idempotent-replayed')).toBe('true');
      expect(replayed.body.orderId).toBe(answered.body.orderId);
    } finally {
      worker.kill('SIGTERM');
      await new Promise((r) => worker.once('exit', r));
    }
  });
});
