import { randomUUID } from 'node:crypto';
import { startReceiver } from '../../scripts/receivers/https-receiver';
import { startHangingReceiver, startStreamingReceiver } from '../../scripts/receivers/slow-receivers';
import { MAX_ENDPOINTS_PER_OWNER } from '../../src/db/repositories/webhook-endpoints';
import { endpointWorkflowId } from '../../src/workflows';
import { callApi } from '../helpers/api-client';
import { eventually } from '../helpers/eventually';
import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { startTestStack, type TestStack } from '../helpers/stack';

const PER_ENDPOINT = 2;
const B_ENDPOINTS = 6;

/**
 * Issue 9, D4: one merchant's hanging webhook endpoints must not starve anyone else. Webhook
 * delivery runs on its own task queue and worker, one workflow per endpoint; each endpoint has at
 * most WEBHOOK_ENDPOINT_CONCURRENCY attempts in flight, so a merchant at most that times its
 * endpoints (capped at 16); a hanging endpoint costs one activity holding a few sockets.
 */
describe('webhook isolation: a noisy neighbour cannot starve other merchants', () => {
  jest.setTimeout(120_000);
  let stack: TestStack;
  let hanging: Awaited<ReturnType<typeof startHangingReceiver>>;
  const stops: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    stack = await startTestStack({
      env: {
        WEBHOOK_ENDPOINT_CONCURRENCY: String(PER_ENDPOINT),
        // Hanging attempts stay in flight for the whole test.
        WEBHOOK_TIMEOUT_MS: '60000',
      },
    });
    hanging = await startHangingReceiver();
  });
  afterAll(async () => {
    await hanging?.stop(); // first: the held attempts fail at once, so the worker drains
    for (const stop of stops) await stop();
    await stack?.stop();
  });

  async function merchantWithToken() {
    const merchant = await seedMerchant(stack.db);
    const token = await accessToken(stack.baseUrl, await seedKey(stack.db, merchant));
    const api = (method: string, path: string, body?: unknown) => callApi(stack.baseUrl, token, method, path, body);
    return { ...merchant, api };
  }

  /** Events written straight into the outbox, as completed orders write them. */
  async function outboxEvents(merchant: { mid: string; pid: string }, count: number) {
    await stack.db('events').insert(
      Array.from({ length: count }, (_, i) => ({
        id: randomUUID(),
        name: 'order.completed',
        merchant_id: merchant.mid,
        partner_id: merchant.pid,
        order_id: randomUUID(),
        external_order_id: `noisy-${i}`,
        confirmation_id: randomUUID(),
        data: null,
        is_test_mode: true,
        occurred_at: new Date(),
      })),
    );
  }

  it('with many deliveries hanging on merchant B, A evaluates and gets its webhooks; B never exceeds its limits', async () => {
    const b = await merchantWithToken();
    const bEndpoints: string[] = [];
    for (let i = 0; i < B_ENDPOINTS; i++) {
      const res = await b.api('POST', '/v1/webhooks', { url: hanging.urlFor(`b${i}`), events: ['*'] });
      expect(res.status).toBe(201);
      bEndpoints.push(res.body.id);
    }
    await outboxEvents(b, 10); // 60 deliveries, none of which will ever be answered
    const bLimit = B_ENDPOINTS * PER_ENDPOINT;
    await eventually(
      () => hanging.inFlight(),
      (n) => n === bLimit,
      { describe: `B's attempts in flight to reach its endpoints' limits (${bLimit})`, timeoutMs: 30_000 },
    );

    const a = await merchantWithToken();
    const receiver = await startReceiver(200);
    stops.push(() => receiver.stop());
    expect((await a.api('POST', '/v1/webhooks', { url: receiver.url, events: ['order.completed'] })).status).toBe(201);
    const orders: string[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await a.api('POST', '/v1/evaluate', {
        idempotencyKey: randomUUID(),
        externalOrderId: `quiet-${randomUUID()}`,
        transaction: { amount: 1500, currency: 'USD', responseCode: '51' },
        paymentMethod: { cardNumber: '4111111111111111', expiryMonth: 12, expiryYear: 2090 },
      });
      expect([res.status, res.body.outcome]).toEqual([200, 'APPROVED']);
      orders.push(res.body.orderId);
    }
    const deliveredOrders = () => new Set(receiver.received.map((r) => JSON.parse(r.body).OrderId as string));
    await eventually(
      () => orders.filter((id) => !deliveredOrders().has(id)),
      (missing) => missing.length === 0,
      { describe: "A's 10 webhooks (last value: the orders still missing)", timeoutMs: 30_000 },
    );

    // B is still stuck at its limits, never over them, and its other deliveries wait (not failed).
    const stats = hanging.stats();
    expect(stats.peakPerPath).toBe(PER_ENDPOINT);
    expect(stats.peakTotal).toBe(bLimit);
    expect(stats.inFlight).toBe(bLimit);
    const bDeliveries = await stack.db('webhook_deliveries').whereIn('endpoint_id', bEndpoints);
    expect(bDeliveries).toHaveLength(60);
    expect(bDeliveries.every((d: { status: string }) => d.status === 'pending')).toBe(true);
    expect(
      await stack.db('webhook_attempts').whereIn(
        'delivery_id',
        bDeliveries.map((d: { id: string }) => d.id),
      ),
    ).toEqual([]);

    // Structure: one workflow per endpoint (not per delivery), on the webhook task queue; orders on theirs.
    const webhookQueue = stack.config.temporal.webhookTaskQueue;
    expect(webhookQueue).not.toBe(stack.taskQueue);
    for (const endpointId of bEndpoints) {
      const described = await stack.client.workflow.getHandle(endpointWorkflowId(endpointId)).describe();
      expect([described.taskQueue, described.status.name]).toEqual([webhookQueue, 'RUNNING']);
    }
  });

  it("a burst beyond an endpoint's concurrency is delivered in full, each once, by its one workflow", async () => {
    const e = await merchantWithToken();
    const receiver = await startReceiver(200);
    stops.push(() => receiver.stop());
    const created = await e.api('POST', '/v1/webhooks', { url: receiver.url, events: ['*'] });
    await outboxEvents(e, 12); // 12 deliveries to one endpoint, 2 at a time
    await eventually(
      () => stack.db('webhook_deliveries').where({ endpoint_id: created.body.id }).select('status', 'attempts'),
      (rows) => rows.length === 12 && rows.every((r) => r.status === 'delivered'),
      { describe: 'all 12 deliveries delivered', timeoutMs: 60_000 },
    );
    expect(receiver.received).toHaveLength(12);
    const keys = receiver.received.map((r) => JSON.parse(r.body).IdempotencyKey as string);
    expect(new Set(keys).size).toBe(12);
    const described = await stack.client.workflow.getHandle(endpointWorkflowId(created.body.id)).describe();
    expect(described.taskQueue).toBe(stack.config.temporal.webhookTaskQueue);
  });

  it('reads at most a small part of a response body: a 2xx streaming without end still counts as delivered', async () => {
    const c = await merchantWithToken();
    const streaming = await startStreamingReceiver(200);
    stops.push(() => streaming.stop());
    const created = await c.api('POST', '/v1/webhooks', { url: streaming.url, events: ['*'] });
    await outboxEvents(c, 1);
    // Well before the 60 s attempt deadline: the body was cut off, not read to the end.
    await eventually(
      () => stack.db('webhook_deliveries').where({ endpoint_id: created.body.id }).select('status', 'attempts'),
      (rows) => rows.length === 1 && rows[0]?.status === 'delivered',
      { describe: 'the streamed delivery to count as delivered', timeoutMs: 30_000 },
    );
    await eventually(
      () => streaming.closedConnections(),
      (n) => n === 1,
      { describe: 'the streaming receiver to see the connection dropped', timeoutMs: 30_000 },
    );
    const [attempt] = await stack
      .db('webhook_attempts as a')
      .join('webhook_deliveries as d', 'd.id', 'a.delivery_id')
      .where('d.endpoint_id', created.body.id)
      .select('a.*');
    expect([attempt.status_code, attempt.succeeded]).toEqual([200, true]);
    expect(streaming.bytesSent()).toBeLessThan(64 * 2 ** 20); // what the socket buffers took, not gigabytes
  });

  it(`caps endpoints at ${MAX_ENDPOINTS_PER_OWNER} per merchant: 409 409030; a deleted one frees its place`, async () => {
    const d = await merchantWithToken();
    const created = await Promise.all(
      Array.from({ length: MAX_ENDPOINTS_PER_OWNER + 2 }, (_, i) =>
        d.api('POST', '/v1/webhooks', { url: `https://hooks.example.com/${i}`, events: ['*'] }),
      ),
    );
    const statuses = created.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(MAX_ENDPOINTS_PER_OWNER);
    const refused = created.filter((r) => r.status !== 201);
    expect(refused.map((r) => [r.status, r.body.error.id])).toEqual([
      [409, '409030'],
      [409, '409030'],
    ]);
    expect((await d.api('GET', '/v1/webhooks')).body.data).toHaveLength(MAX_ENDPOINTS_PER_OWNER);
    const first = created.find((r) => r.status === 201)?.body.id;
    expect((await d.api('DELETE', `/v1/webhooks/${first}`)).status).toBe(200);
    expect(
      (await d.api('POST', '/v1/webhooks', { url: 'https://hooks.example.com/again', events: ['*'] })).status,
    ).toBe(201);
  });
});
