import { randomUUID } from 'node:crypto';
import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import { listOrderEvents } from '../../src/db/repositories/events';
import { orderWorkflowId, refundWorkflowId } from '../../src/domain/orders/workflow-ids';
import { callApi } from '../helpers/api-client';
import { eventually } from '../helpers/eventually';
import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { orderRow } from '../helpers/order-row';
import { shared } from '../helpers/shared-env';
import { startTestStack, type TestStack } from '../helpers/stack';
import { killWorker, startWorkerProcess } from '../helpers/worker-process';

/**
 * Issue 13's bounded wait: with no worker running, an evaluate cannot be decided. It must answer
 * 503 503010 with Retry-After within the API's workflow deadline (WORKFLOW_CALL_DEADLINE_MS, set
 * short here), release its idempotency claim, and the same request (same key) must succeed once a
 * worker is back, as one order.
 *
 * And a capture answered 503 that way: the Temporal server keeps the Update it was sent, and a
 * worker takes it up when it returns, after the caller stopped waiting. The workflow turns it away
 * unrun (CallerDeadline), so "nothing was decided" stays true; the same request retried with its
 * key then captures, once. Found by the cluster test (kill-under-load): before, the kept capture
 * ran by itself and the merchant's retry was refused 409004.
 *
 * All the while the API stays ready (/v1/health/ready, the chart's readiness probe, asks only its
 * database): were it not, every API pod would leave the load balancer when the workers are down,
 * and merchants would get the ingress's bare error instead of this JSON 503 with Retry-After.
 * /v1/health/workers says what operators need: no live worker.
 */
const DEADLINE_MS = 3_000;
/** Margin over the deadline for the token check, the claim and its release on a busy shared machine. */
const ANSWER_MARGIN_MS = 2_000;

describe('calls that find no worker', () => {
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

  const probe = async (route: string) => {
    const res = await fetch(`${stack.baseUrl}${route}`);
    return { status: res.status, body: (await res.json()) as { checks: Record<string, unknown> } };
  };

  it('stays ready with every worker stopped, answers 503 503010 within its deadline, releases the claim, and the same request succeeds once a worker is back', async () => {
    // No worker runs: the API is ready all the same; the workers' own check says they are missing.
    const ready = await probe('/v1/health/ready');
    expect(ready).toMatchObject({ status: 200, body: { status: 'ok', checks: { database: { status: 'ok' } } } });
    expect(Object.keys(ready.body.checks)).toEqual(['database']);
    expect(await probe('/v1/health/workers')).toMatchObject({
      status: 503,
      body: {
        status: 'unavailable',
        checks: { worker: { status: 'down', taskQueue: stack.taskQueue, heartbeat: false } },
      },
    });

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
    // And the API that answered so is still ready: it stays in the load balancer to answer the retry.
    expect((await probe('/v1/health/ready')).status).toBe(200);

    // But the server kept the evaluate (Update-With-Start): a workflow task waits for a worker.
    const handle = stack.client.workflow.getHandle(orderWorkflowId(merchant.mid, request.externalOrderId));
    expect((await handle.describe()).raw.pendingWorkflowTask).toBeTruthy();

    const worker = await startWorkerProcess(stack, output);
    try {
      await eventually(
        () => probe('/v1/health/workers'),
        (r) => r.status === 200,
        { describe: 'the workers check to see the new worker', intervalMs: 250 },
      );
      // The new worker takes it up after its caller was told 503, and turns it away unrun (no
      // charge, no order) rather than deciding behind the merchant's back: the task completes
      // with neither the Update accepted nor a charge scheduled in the history.
      await eventually(
        () => handle.describe(),
        (d) => !d.raw.pendingWorkflowTask,
        { describe: 'the kept evaluate to be taken up by the new worker', intervalMs: 100 },
      );
      const history = (await handle.fetchHistory()).events ?? [];
      expect(history.filter((e) => e.workflowTaskCompletedEventAttributes).length).toBeGreaterThan(0);
      expect(history.filter((e) => e.workflowExecutionUpdateAcceptedEventAttributes)).toEqual([]);
      expect(history.filter((e) => e.activityTaskScheduledEventAttributes)).toEqual([]);
      expect(await stack.db('orders').where({ merchant_id: merchant.mid })).toEqual([]);

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

  it('starts afresh an order whose run closed with no evaluate taken up; racing evaluates make one order', async () => {
    const merchant = await seedMerchant(stack.db);
    const token = await accessToken(stack.baseUrl, await seedKey(stack.db, merchant));
    const api = (method: string, url: string, body?: unknown) => callApi(stack.baseUrl, token, method, url, body);
    const externalOrderId = `unevaluated-run-${randomUUID()}`;
    const payment = (idempotencyKey: string) => ({
      idempotencyKey,
      externalOrderId,
      transaction: { amount: 2500, currency: 'USD', responseCode: '51' },
      paymentMethod: { cardNumber: '4111111111111111', expiryMonth: 12, expiryYear: 2090 },
    });

    const unanswered = await api('POST', '/v1/evaluate', payment(randomUUID()));
    expect([unanswered.status, unanswered.body.error?.id]).toEqual([503, '503010']);
    // Its run closes with no order made, as it does when nobody retries within the hour it waits.
    const handle = stack.client.workflow.getHandle(orderWorkflowId(merchant.mid, externalOrderId));
    await handle.terminate('closed unevaluated, as after the first-evaluate wait');

    const worker = await startWorkerProcess(stack, output);
    try {
      // Two evaluates of the id under different keys, at once: one new run, one order, one charge.
      const answers = await Promise.all([
        api('POST', '/v1/evaluate', payment(randomUUID())),
        api('POST', '/v1/evaluate', payment(randomUUID())),
      ]);
      for (const a of answers)
        expect({ status: a.status, error: a.body.error }).toEqual({ status: 200, error: undefined });
      expect(answers.map((a) => a.body.status)).toEqual(['APPROVED', 'APPROVED']);
      expect(answers[1]?.body.orderId).toBe(answers[0]?.body.orderId);
      const orders = await stack.db('orders').where({ merchant_id: merchant.mid });
      expect(orders.map((o) => o.external_order_id)).toEqual([externalOrderId]);
      expect((await listOrderEvents(stack.db, String(orders[0]?.id))).map((e) => e.name)).toEqual(['order.completed']);
      // No lock is held around the restart: a run started by the loser of a close race finds the
      // winner's order in the charges ledger before it charges, and closes (src/orders/unevaluated-run.ts).
      const runs = await eventually(
        async () => {
          const names: string[] = [];
          for await (const run of stack.client.workflow.list({ query: `WorkflowId = '${handle.workflowId}'` }))
            names.push(run.status.name);
          return names.sort();
        },
        (names) => names.length >= 2 && names.every((n) => n === 'COMPLETED' || n === 'TERMINATED'),
        { describe: "the order's runs to close", timeoutMs: 10_000 },
      );
      expect(runs.filter((n) => n === 'TERMINATED')).toHaveLength(1);
      expect(await stack.db('charges').where({ external_order_id: externalOrderId }).pluck('state')).toEqual([
        'answered',
      ]);
    } finally {
      worker.kill('SIGTERM');
      await new Promise((r) => worker.once('exit', r));
    }
  });

  /** A new merchant (able to authorize) and its API calls. */
  const merchantApi = async () => {
    const merchant = await seedMerchant(stack.db);
    const token = await accessToken(stack.baseUrl, await seedKey(stack.db, merchant));
    const api = (method: string, url: string, body?: unknown) => callApi(stack.baseUrl, token, method, url, body);
    expect((await api('PUT', `/v1/merchants/${merchant.mid}/settings`, { authorizeCapability: true })).status).toBe(
      200,
    );
    return api;
  };
  const cardPayment = (overrides: Record<string, unknown> = {}) => ({
    idempotencyKey: randomUUID(),
    externalOrderId: `lost-answer-${randomUUID()}`,
    transaction: { amount: 2500, currency: 'USD', responseCode: '51' },
    paymentMethod: { cardNumber: '4111111111111111', expiryMonth: 12, expiryYear: 2090 },
    ...overrides,
  });

  it('does not run a capture taken up after its 503; the same request retried captures once (another key: that capture)', async () => {
    const api = await merchantApi();

    const first = await startWorkerProcess(stack, output);
    const authorized = await api('POST', '/v1/evaluate', cardPayment({ transactionType: 'AUTHORIZATION' }));
    expect(authorized.body).toMatchObject({ outcome: 'CAPTUREREQUIRED', orderStatus: 5 });
    const orderId = String(authorized.body.orderId);
    await killWorker(first);

    const capture = { idempotencyKey: randomUUID(), orderId };
    const unanswered = await api('POST', '/v1/capture', capture);
    expect([unanswered.status, unanswered.body.error?.id]).toEqual([503, '503010']);
    expect(unanswered.headers.get('retry-after')).toBe('1');
    // Its only worker SIGKILLed: the API stays ready; the workers' check notices within seconds.
    expect((await probe('/v1/health/ready')).status).toBe(200);
    await eventually(
      () => probe('/v1/health/workers'),
      (r) => r.status === 503,
      { describe: 'the workers check to notice the killed worker', intervalMs: 250 },
    );
    // The server kept it: a workflow task waits for a worker to take it up.
    const { workflow_id: workflowId } = await orderRow(stack.db, orderId);
    const handle = stack.client.workflow.getHandle(workflowId);
    expect((await handle.describe()).raw.pendingWorkflowTask).toBeTruthy();

    const second = await startWorkerProcess(stack, output);
    try {
      // The new worker takes it up (the task is no longer pending) and turns the capture away:
      // the order is as it was, the capture not in its history.
      await eventually(
        () => handle.describe(),
        (d) => !d.raw.pendingWorkflowTask,
        { describe: `the kept capture of ${workflowId} to be taken up by the new worker`, intervalMs: 100 },
      );
      expect((await orderRow(stack.db, orderId)).status_name).toBe('Capturerequired');
      const history = (await handle.fetchHistory()).events ?? [];
      expect(history.filter((e) => e.workflowExecutionUpdateAcceptedEventAttributes)).toHaveLength(1); // evaluate

      const retried = await api('POST', '/v1/capture', capture);
      expect({ status: retried.status, error: retried.body.error }).toEqual({ status: 200, error: undefined });
      expect(retried.body).toMatchObject({ status: 'APPROVED', orderStatus: 7, amounts: { captured: 2500 } });
      expect(retried.headers.get('idempotent-replayed')).toBeNull(); // the 503 freed the key

      // Another key for the same capture (a client that makes one a call): the capture made answers.
      const other = await api('POST', '/v1/capture', { idempotencyKey: randomUUID(), orderId });
      expect([other.status, other.body.orderStatus, other.body.amounts?.captured]).toEqual([200, 7, 2500]);
      expect(await stack.db('charges').where({ order_id: orderId, kind: 'capture' })).toHaveLength(1);

      expect((await listOrderEvents(stack.db, orderId)).map((e) => e.name)).toEqual([
        'order.capturerequired',
        'order.completed',
      ]);
      const captures = await stack.db('order_transitions').where({ order_id: orderId, to_status: 'Completed' });
      expect(captures).toHaveLength(1);
    } finally {
      second.kill('SIGTERM');
      await new Promise((r) => second.once('exit', r));
    }
  });

  it('does not run a refund taken up after its 503; the same request retried refunds once', async () => {
    const api = await merchantApi();
    const first = await startWorkerProcess(stack, output);
    const approved = await api('POST', '/v1/evaluate', cardPayment());
    expect(approved.body).toMatchObject({ outcome: 'APPROVED', orderStatus: 7 });
    const orderId = String(approved.body.orderId);
    await killWorker(first);

    const refund = { idempotencyKey: randomUUID() };
    const unanswered = await api('POST', `/v1/orders/${orderId}/refund`, refund);
    expect([unanswered.status, unanswered.body.error?.id]).toEqual([503, '503010']);
    // The refund's workflow was started: it waits for a worker to take up its first task.
    const handle = stack.client.workflow.getHandle(refundWorkflowId(orderId, { kind: 'full' }));
    expect((await handle.describe()).raw.pendingWorkflowTask).toBeTruthy();

    const second = await startWorkerProcess(stack, output);
    try {
      // The new worker takes it up after its caller was told 503: it ends without refunding.
      expect(await handle.result()).toMatchObject({ kind: 'caller_gone' });
      expect(await stack.db('refunds').where({ order_id: orderId })).toEqual([]);
      expect((await orderRow(stack.db, orderId)).refunded_amount).toBe(0);

      const retried = await api('POST', `/v1/orders/${orderId}/refund`, refund);
      expect({ status: retried.status, error: retried.body.error }).toEqual({ status: 200, error: undefined });
      expect(retried.body).toMatchObject({ orderStatus: 6, amount: 2500, refundedAmount: 2500 });
      expect(await stack.db('refunds').where({ order_id: orderId })).toHaveLength(1);
      expect((await listOrderEvents(stack.db, orderId)).map((e) => e.name)).toEqual([
        'order.completed',
        'order.refunded',
      ]);
    } finally {
      second.kill('SIGTERM');
      await new Promise((r) => second.once('exit', r));
    }
  });
});
