import { createHash, createHmac, randomUUID } from 'node:crypto';
import { type Received, startReceiver } from '../../scripts/receivers/https-receiver';
import { callApi } from '../helpers/api-client';
import { eventually } from '../helpers/eventually';
import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { outboxSettled } from '../helpers/outbox';
import { startTestStack, type TestStack } from '../helpers/stack';

/** The merchant's verifier, written from the interface's rules, independent of the service's code. */
function merchantVerifies(r: Received, secretBase64: string, host: string): boolean {
  const hash = createHash('sha512').update(r.body, 'utf8').digest('base64');
  if (r.headers['x-fc-content-sha512'] !== hash) return false;
  const toSign = `POST\n${r.headers['x-fc-nonce']};${r.headers['x-fc-date']};${host};${hash}`;
  const signature = createHmac('sha512', Buffer.from(secretBase64, 'base64')).update(toSign, 'utf8').digest('base64');
  return r.headers['x-fc-authorization']?.split('&Signature=')[1] === signature;
}

describe('webhooks through the real API, worker, outbox relay and a real HTTPS receiver', () => {
  let stack: TestStack;
  let token: string;
  let merchant: Awaited<ReturnType<typeof seedMerchant>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let endpoint: { id: string; secret: string };

  beforeAll(async () => {
    stack = await startTestStack();
    merchant = await seedMerchant(stack.db);
    token = await accessToken(stack.baseUrl, await seedKey(stack.db, merchant));
    await api('PUT', `/v1/merchants/${merchant.mid}/settings`, { authorizeCapability: true });
    receiver = await startReceiver(200);
    const created = await api('POST', '/v1/webhooks', { url: receiver.url, events: ['*'], description: 'all events' });
    endpoint = created.body;
  });
  afterAll(async () => {
    await receiver?.stop();
    await stack?.stop();
  });

  const api = (method: string, path: string, body?: unknown, as = token) =>
    callApi(stack.baseUrl, as, method, path, body);
  const evaluate = (overrides: Record<string, unknown> = {}) =>
    api('POST', '/v1/evaluate', {
      idempotencyKey: randomUUID(),
      externalOrderId: `shop-${randomUUID()}`,
      transaction: { amount: 1500, currency: 'USD', responseCode: '51' },
      paymentMethod: { cardNumber: '4111111111111111', expiryMonth: 12, expiryYear: 2090 },
      ...overrides,
    });
  const envelopes = () => receiver.received.map((r) => ({ raw: r, env: JSON.parse(r.body) }));
  /** The first delivery of `event` for the order; throws naming both when none arrives in time. */
  async function waitFor(orderId: string, event: string) {
    const found = await eventually(
      () => envelopes().find((e) => e.env.OrderId === orderId && e.env.Event === event),
      (e) => e !== undefined,
      { describe: `${event} for order ${orderId} at the receiver` },
    );
    return found as NonNullable<typeof found>;
  }

  describe('endpoint management', () => {
    it('creates an endpoint with a signing secret of 32 random bytes, shown on create only', async () => {
      expect(endpoint.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(Buffer.from(endpoint.secret, 'base64')).toHaveLength(32);
      const read = await api('GET', `/v1/webhooks/${endpoint.id}`);
      expect(read.body).toMatchObject({ id: endpoint.id, url: receiver.url, events: ['*'], enabled: true });
      expect(read.body.secret).toBeUndefined();
      expect((await api('GET', '/v1/webhooks')).body.data.map((e: { id: string }) => e.id)).toContain(endpoint.id);
    });

    it('refuses http URLs (400040) and unknown events (400041)', async () => {
      const http = await api('POST', '/v1/webhooks', { url: 'http://shop.example/hooks', events: ['order.completed'] });
      expect([http.status, http.body.error.id]).toEqual([400, '400040']);
      const unknown = await api('POST', '/v1/webhooks', {
        url: 'https://shop.example/hooks',
        events: ['order.canceled'],
      });
      expect([unknown.status, unknown.body.error.id]).toEqual([400, '400041']);
    });

    it('refuses events the owner never receives (400041): application events on a merchant endpoint, others on a partner one', async () => {
      const url = 'https://shop.example/hooks';
      const before = await stack.db('webhook_endpoints').count<{ count: string }[]>('* as count');
      const app = await api('POST', '/v1/webhooks', { url, events: ['order.completed', 'application.approved'] });
      expect([app.status, app.body.error.id, app.body.error.field]).toEqual([400, '400041', 'events']);
      const put = await api('PUT', `/v1/webhooks/${endpoint.id}`, { events: ['application.approved'] });
      expect([put.status, put.body.error.id]).toEqual([400, '400041']);
      expect((await api('GET', `/v1/webhooks/${endpoint.id}`)).body.events).toEqual(['*']);

      const partnerToken = await accessToken(stack.baseUrl, await seedKey(stack.db, { pid: merchant.pid }));
      const order = await api('POST', '/v1/webhooks', { url, events: ['order.completed'] }, partnerToken);
      expect([order.status, order.body.error.id]).toEqual([400, '400041']);
      expect(await stack.db('webhook_endpoints').count<{ count: string }[]>('* as count')).toEqual(before);
      // What each owner does receive is taken, and "*" by both.
      const taken = await api('POST', '/v1/webhooks', { url, events: ['application.approved'] }, partnerToken);
      expect(taken.status).toBe(201);
      const all = await api('POST', '/v1/webhooks', { url, events: ['*'] }, partnerToken);
      expect(all.status).toBe(201);
      for (const id of [taken.body.id, all.body.id]) await api('DELETE', `/v1/webhooks/${id}`, undefined, partnerToken);
    });

    it("in sandbox, by default, takes this machine's receivers but refuses the network around it (400042)", async () => {
      for (const url of ['https://10.0.0.7/hooks', 'https://169.254.169.254/latest', 'https://[fd12:3456::1]/hooks']) {
        const res = await api('POST', '/v1/webhooks', { url, events: ['*'] });
        expect([url, res.status, res.body.error?.id]).toEqual([url, 400, '400042']);
      }
      // The loopback receiver of the test above was taken (201); so is a name this machine cannot resolve.
      const unresolved = await api('POST', '/v1/webhooks', { url: 'https://hooks.shop.example/x', events: ['*'] });
      expect(unresolved.status).toBe(201);
      await api('DELETE', `/v1/webhooks/${unresolved.body.id}`);
    });

    it('updates, rotates the secret, deletes, and keeps endpoints merchant-scoped', async () => {
      const { body: temp } = await api('POST', '/v1/webhooks', {
        url: 'https://shop.example/h',
        events: ['order.refunded'],
      });
      expect(
        (await api('PUT', `/v1/webhooks/${temp.id}`, { events: ['order.completed', 'order.refunded'], enabled: false }))
          .body,
      ).toMatchObject({
        events: ['order.completed', 'order.refunded'],
        enabled: false,
      });
      const rotated = await api('POST', `/v1/webhooks/${temp.id}/rotate-secret`);
      expect(rotated.body.secret).not.toBe(temp.secret);
      const other = await seedMerchant(stack.db);
      const otherToken = await accessToken(stack.baseUrl, await seedKey(stack.db, other));
      expect((await api('GET', `/v1/webhooks/${temp.id}`, undefined, otherToken)).body.error.id).toBe('404020');
      expect((await api('DELETE', `/v1/webhooks/${temp.id}`)).status).toBe(200);
      expect((await api('GET', `/v1/webhooks/${temp.id}`)).status).toBe(404);
    });
  });

  describe('delivery', () => {
    it('delivers order.completed signed: the merchant verifier accepts it, a tampered body or wrong host is rejected', async () => {
      const { body: order } = await evaluate();
      const { raw, env } = await waitFor(order.orderId, 'order.completed');
      expect(env).toEqual({
        IdempotencyKey: expect.stringMatching(/^[0-9a-f-]{36}$/),
        Event: 'order.completed',
        TimeStamp: expect.any(String),
        EventData: null,
        Mid: merchant.mid,
        Pid: merchant.pid,
        ExternalOrderId: order.externalOrderId,
        OrderId: order.orderId,
        ConfirmationId: expect.any(String),
        IsTestMode: true,
        IsResent: false,
      });
      expect(raw.headers['content-type']).not.toMatch(/application\/json/);
      // x-fc-signature as the commercial service sends it: HMAC-SHA512 of the raw body bytes.
      expect(raw.headers['x-fc-signature']).toBe(
        createHmac('sha512', Buffer.from(endpoint.secret, 'base64'))
          .update(Buffer.from(raw.body, 'utf8'))
          .digest('base64'),
      );
      expect(merchantVerifies(raw, endpoint.secret, receiver.host)).toBe(true);
      expect(
        merchantVerifies(
          { ...raw, body: raw.body.replace('order.completed', 'order.refunded') },
          endpoint.secret,
          receiver.host,
        ),
      ).toBe(false);
      expect(merchantVerifies(raw, endpoint.secret, 'shop.example.com')).toBe(false);
    });

    it('sends the sandbox triggers: capturerequired, cancelled, refunded, challenge.presented', async () => {
      const { body: auth } = await evaluate({ transactionType: 'AUTHORIZATION' });
      expect((await waitFor(auth.orderId, 'order.capturerequired')).env.EventData).toMatchObject({
        Amount: 1500,
        Currency: 'USD',
      });
      await api('POST', `/v1/orders/${auth.orderId}/cancel`, {});
      expect((await waitFor(auth.orderId, 'order.cancelled')).env.EventData).toBeNull();

      const { body: paid } = await evaluate();
      const refund = await api('POST', `/v1/orders/${paid.orderId}/refund`, {});
      const refunded = await waitFor(paid.orderId, 'order.refunded');
      expect(refunded.env.EventData).toEqual({
        Timestamp: expect.any(String),
        Message: expect.any(String),
        TransactionId: refund.body.transactionId,
        InitialTransactionReference: expect.stringMatching(/^[0-9a-f-]{36}$/),
        Amount: 1500,
        Currency: 'USD',
      });

      const { body: challenged } = await evaluate({
        paymentMethod: { cardNumber: '4000000000003220', expiryMonth: 12, expiryYear: 2090 },
      });
      expect((await waitFor(challenged.orderId, 'challenge.presented')).env.EventData).toMatchObject({
        ExpiresAt: expect.any(String),
      });
    });

    it('a consumer processing each IdempotencyKey once sees each event exactly once', async () => {
      const orders = await Promise.all([evaluate(), evaluate(), evaluate()]);
      for (const { body } of orders) await waitFor(body.orderId, 'order.completed');
      // Count only once the relay is idle and every delivery settled: a duplicate would have arrived by then.
      await outboxSettled(stack.db);
      const all = envelopes().map((e) => e.env);
      const keys = all.map((e) => e.IdempotencyKey);
      expect(new Set(keys).size).toBe(keys.length); // in the success path nothing arrives twice
      const events = await stack.db('events').where({ merchant_id: merchant.mid });
      expect(events.length).toBeGreaterThanOrEqual(orders.length);
      for (const e of events) expect(all.filter((x) => x.OrderId === e.order_id && x.Event === e.name)).toHaveLength(1);
    });

    it('lists events to catch up, resends one with IsResent true and the same IdempotencyKey, and logs deliveries', async () => {
      const { body: order } = await evaluate();
      const original = await waitFor(order.orderId, 'order.completed');
      const since = new Date(Date.now() - 60_000).toISOString();
      const listed = await api('GET', `/v1/events?since=${encodeURIComponent(since)}`);
      const event = listed.body.data.find((e: { OrderId: string }) => e.OrderId === order.orderId);
      expect(event).toMatchObject({ Event: 'order.completed', Mid: merchant.mid });

      const count = receiver.received.length;
      const resend = await api('POST', `/v1/events/${event.EventId}/resend`);
      expect(resend.status).toBe(202);
      const again = await eventually(
        () =>
          receiver.received
            .slice(count)
            .map((r) => JSON.parse(r.body))
            .filter((e) => e.IdempotencyKey === original.env.IdempotencyKey),
        (arrived) => arrived.length > 0,
        { describe: `the resent order.completed of order ${order.orderId}` },
      );
      expect(again).toEqual([
        expect.objectContaining({ IsResent: true, Event: 'order.completed', OrderId: order.orderId }),
      ]);

      // The resent attempt is recorded just after the receiver has it: wait for the log to settle.
      const entry = await eventually(
        async () =>
          (await api('GET', `/v1/webhooks/${endpoint.id}/deliveries`)).body.data.find(
            (d: { deliveryId: string }) => d.deliveryId === original.env.IdempotencyKey,
          ),
        (e) => e?.status === 'delivered' && e.attempts.length >= 2,
        { describe: `the delivery log of ${original.env.IdempotencyKey} to show the resent attempt` },
      );
      expect(entry).toMatchObject({ status: 'delivered', event: 'order.completed' });
      expect(entry.attempts.length).toBe(2);
      expect(entry.attempts[1]).toMatchObject({ attempt: 1, statusCode: 200, succeeded: true, isResent: true });
      expect(entry.attempts[0]).toMatchObject({ attempt: 1, statusCode: 200, succeeded: true, isResent: false });
      expect((await api('POST', `/v1/events/${randomUUID()}/resend`)).body.error.id).toBe('404021');
    });
  });
});
