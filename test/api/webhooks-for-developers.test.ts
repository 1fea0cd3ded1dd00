import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, createHmac, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Received, startReceiver } from '../../scripts/receivers/https-receiver';
import { verifyWebhook } from '../../src/domain/webhooks/signature';
import { callApi } from '../helpers/api-client';
import { eventually } from '../helpers/eventually';
import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { startTestStack, type TestStack } from '../helpers/stack';

/** The merchant's verifier, written from the interface's rules, independent of the service's code. */
function merchantVerifies(r: Received, secretBase64: string, host: string): boolean {
  const key = Buffer.from(secretBase64, 'base64');
  const hash = createHash('sha512').update(r.body, 'utf8').digest('base64');
  if (r.headers['x-fc-content-sha512'] !== hash) return false;
  const toSign = `POST\n${r.headers['x-fc-nonce']};${r.headers['x-fc-date']};${host};${hash}`;
  const signature = createHmac('sha512', key).update(toSign, 'utf8').digest('base64');
  const bodySignature = createHmac('sha512', key).update(r.body, 'utf8').digest('base64');
  return (
    r.headers['x-fc-authorization']?.split('&Signature=')[1] === signature &&
    r.headers['x-fc-signature'] === bodySignature
  );
}

describe('webhooks for developers: rotation, test events, cursor paging, listen', () => {
  let stack: TestStack;
  let token: string;
  let key: { clientId: string; clientSecret: string };
  let merchant: Awaited<ReturnType<typeof seedMerchant>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    stack = await startTestStack();
    merchant = await seedMerchant(stack.db);
    key = await seedKey(stack.db, merchant);
    token = await accessToken(stack.baseUrl, key);
    receiver = await startReceiver(200);
  });
  afterAll(async () => {
    await receiver?.stop();
    await stack?.stop();
  });

  const api = (method: string, path: string, body?: unknown, as = token) =>
    callApi(stack.baseUrl, as, method, path, body);

  /** Sends a test event to `endpointId` and returns what the receiver got for it. */
  async function testDelivery(endpointId: string, event = 'order.completed') {
    const sent = await api('POST', `/v1/webhooks/${endpointId}/test`, { event });
    expect(sent.status).toBe(202);
    const raw = await eventually(
      () => receiver.received.find((r) => JSON.parse(r.body).IdempotencyKey === sent.body.deliveryId),
      (r) => r !== undefined,
      { describe: `test delivery ${sent.body.deliveryId} at the receiver` },
    );
    return { sent: sent.body, raw: raw as Received };
  }

  describe('secret rotation without downtime', () => {
    it('keeps signing with the old secret until activatesAt (24 h by default), then with the new one', async () => {
      const { body: endpoint } = await api('POST', '/v1/webhooks', { url: receiver.url, events: ['order.refunded'] });
      const before = Date.now();
      const rotated = await api('POST', `/v1/webhooks/${endpoint.id}/rotate-secret`);
      expect(rotated.status).toBe(200);
      expect(rotated.body.secret).not.toBe(endpoint.secret);
      expect(Buffer.from(rotated.body.secret, 'base64')).toHaveLength(32);
      const activatesAt = Date.parse(rotated.body.activatesAt);
      expect(activatesAt - before).toBeGreaterThanOrEqual(24 * 3_600_000 - 1_000);
      expect(activatesAt - before).toBeLessThanOrEqual(24 * 3_600_000 + 60_000);
      expect((await api('GET', `/v1/webhooks/${endpoint.id}`)).body.secretActivatesAt).toBe(rotated.body.activatesAt);

      const old = await testDelivery(endpoint.id);
      expect(merchantVerifies(old.raw, endpoint.secret, receiver.host)).toBe(true);
      expect(merchantVerifies(old.raw, rotated.body.secret, receiver.host)).toBe(false);
      // The merchant deploys the new secret first and accepts both meanwhile.
      const both = [rotated.body.secret, endpoint.secret];
      expect(verifyWebhook({ body: old.raw.body, headers: old.raw.headers, host: receiver.host, secrets: both })).toBe(
        true,
      );

      // 24 hours pass (the activation instant is moved rather than the clock of the worker).
      await stack
        .db('webhook_endpoints')
        .where({ id: endpoint.id })
        .update({
          pending_secret_activates_at: new Date(Date.now() - 1_000),
        });
      const switched = await testDelivery(endpoint.id);
      expect(merchantVerifies(switched.raw, rotated.body.secret, receiver.host)).toBe(true);
      expect(merchantVerifies(switched.raw, endpoint.secret, receiver.host)).toBe(false);
      expect(
        verifyWebhook({ body: switched.raw.body, headers: switched.raw.headers, host: receiver.host, secrets: both }),
      ).toBe(true);
      expect(
        verifyWebhook({
          body: switched.raw.body,
          headers: switched.raw.headers,
          host: receiver.host,
          secrets: [endpoint.secret],
        }),
      ).toBe(false);
    });

    it('switches at once with { activatesAt: "now" }, and refuses a time more than 7 days ahead', async () => {
      const { body: endpoint } = await api('POST', '/v1/webhooks', { url: receiver.url, events: ['order.refunded'] });
      const far = await api('POST', `/v1/webhooks/${endpoint.id}/rotate-secret`, {
        activatesAt: new Date(Date.now() + 8 * 86_400_000).toISOString(),
      });
      expect([far.status, far.body.error.id, far.body.error.field]).toEqual([400, '400002', 'activatesAt']);
      const typo = await api('POST', `/v1/webhooks/${endpoint.id}/rotate-secret`, { activates_at: 'now' });
      expect(typo.status).toBe(400);

      const now = await api('POST', `/v1/webhooks/${endpoint.id}/rotate-secret`, { activatesAt: 'now' });
      expect(now.status).toBe(200);
      expect((await api('GET', `/v1/webhooks/${endpoint.id}`)).body.secretActivatesAt).toBeNull();
      const { raw } = await testDelivery(endpoint.id);
      expect(merchantVerifies(raw, now.body.secret, receiver.host)).toBe(true);
      expect(merchantVerifies(raw, endpoint.secret, receiver.host)).toBe(false);

      // An ISO instant in the past is "now" too.
      const past = await api('POST', `/v1/webhooks/${endpoint.id}/rotate-secret`, {
        activatesAt: new Date(Date.now() - 60_000).toISOString(),
      });
      const after = await testDelivery(endpoint.id);
      expect(merchantVerifies(after.raw, past.body.secret, receiver.host)).toBe(true);
    });
  });

  describe('POST /v1/webhooks/{id}/test', () => {
    it('sends a signed test event of the chosen type through the durable delivery, marked x-fc-test', async () => {
      const { body: endpoint } = await api('POST', '/v1/webhooks', { url: receiver.url, events: ['order.completed'] });
      const { sent, raw } = await testDelivery(endpoint.id, 'order.refunded');
      expect(sent).toMatchObject({ deliveryId: expect.any(String), endpointId: endpoint.id, event: 'order.refunded' });
      expect(raw.headers['x-fc-test']).toBe('true');
      expect(
        verifyWebhook({ body: raw.body, headers: raw.headers, host: receiver.host, secretBase64: endpoint.secret }),
      ).toBe(true);
      const env = JSON.parse(raw.body);
      expect(env).toEqual({
        IdempotencyKey: sent.deliveryId,
        Event: 'order.refunded',
        TimeStamp: expect.any(String),
        EventData: {
          Timestamp: expect.any(String),
          Message: expect.any(String),
          TransactionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
          InitialTransactionReference: expect.stringMatching(/^[0-9a-f-]{36}$/),
          Amount: 1500,
          Currency: 'USD',
        },
        Mid: merchant.mid,
        Pid: merchant.pid,
        ExternalOrderId: expect.stringMatching(/^fc-test-/),
        OrderId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        ConfirmationId: expect.any(String),
        IsTestMode: true,
        IsResent: false,
      });
      // The delivery log shows it; the events list does not (nor does any other endpoint get it).
      const log = await eventually(
        () => api('GET', `/v1/webhooks/${endpoint.id}/deliveries`),
        (r) =>
          r.body.data.some(
            (d: { deliveryId: string; status: string }) => d.deliveryId === sent.deliveryId && d.status === 'delivered',
          ),
        { describe: 'the test delivery as delivered in the log' },
      );
      expect(log.status).toBe(200);
      const listed = await api('GET', '/v1/events?limit=500');
      expect(listed.body.data.map((e: { EventId: string }) => e.EventId)).not.toContain(sent.eventId);
      expect(receiver.received.filter((r) => JSON.parse(r.body).OrderId === env.OrderId)).toHaveLength(1);
    });

    it('defaults to order.completed; refuses unknown names, application events and foreign endpoints', async () => {
      const { body: endpoint } = await api('POST', '/v1/webhooks', { url: receiver.url, events: ['order.refunded'] });
      const { raw } = await testDelivery(endpoint.id);
      expect(JSON.parse(raw.body)).toMatchObject({ Event: 'order.completed', EventData: null, IsTestMode: true });
      const unknown = await api('POST', `/v1/webhooks/${endpoint.id}/test`, { event: 'order.canceled' });
      expect([unknown.status, unknown.body.error.field]).toEqual([400, 'event']);
      const app = await api('POST', `/v1/webhooks/${endpoint.id}/test`, { event: 'application.approved' });
      expect([app.status, app.body.error.id]).toEqual([400, '400041']);
      const other = await seedMerchant(stack.db);
      const otherToken = await accessToken(stack.baseUrl, await seedKey(stack.db, other));
      const foreign = await api('POST', `/v1/webhooks/${endpoint.id}/test`, {}, otherToken);
      expect([foreign.status, foreign.body.error.id]).toEqual([404, '404020']);
    });
  });

  describe('cursor paging on GET /v1/events', () => {
    it('pages cover every event exactly once, with starting_after or since=<cursor>; the old fields stay', async () => {
      const owner = await seedMerchant(stack.db);
      const ownerToken = await accessToken(stack.baseUrl, await seedKey(stack.db, owner));
      const base = Date.now() - 60_000;
      const ids = Array.from({ length: 23 }, () => randomUUID());
      await stack.db('events').insert(
        ids.map((id, i) => ({
          id,
          name: 'order.completed',
          merchant_id: owner.mid,
          partner_id: owner.pid,
          order_id: randomUUID(),
          external_order_id: `paging-${i}`,
          is_test_mode: true,
          // Several events share an instant: paging by TimeStamp alone would repeat them.
          occurred_at: new Date(base + Math.floor(i / 4) * 1_000),
          dispatched_at: new Date(),
        })),
      );
      for (const param of ['starting_after', 'since']) {
        const seen: string[] = [];
        let path = '/v1/events?limit=5';
        let pages = 0;
        for (;;) {
          const page = await api('GET', path, undefined, ownerToken);
          expect(page.status).toBe(200);
          pages += 1;
          seen.push(...page.body.data.map((e: { EventId: string }) => e.EventId));
          expect(page.body).toHaveProperty('next');
          if (!page.body.hasMore) {
            expect(page.body.nextCursor).toMatch(/^evc_/);
            // Following from the last cursor: nothing new yet, and the cursor is kept.
            const tail = await api('GET', `/v1/events?${param}=${page.body.nextCursor}`, undefined, ownerToken);
            expect([tail.body.data, tail.body.hasMore, tail.body.nextCursor]).toEqual([
              [],
              false,
              page.body.nextCursor,
            ]);
            break;
          }
          path = `/v1/events?limit=5&${param}=${encodeURIComponent(page.body.nextCursor)}`;
        }
        expect(pages).toBe(5);
        expect(seen).toEqual(ids);
      }
      const bad = await api('GET', '/v1/events?starting_after=evc_bm9wZQ', undefined, ownerToken);
      expect([bad.status, bad.body.error.field]).toEqual([400, 'starting_after']);
      const iso = await api(
        'GET',
        `/v1/events?since=${new Date(base + 5_000).toISOString()}&limit=100`,
        undefined,
        ownerToken,
      );
      expect(iso.body.data.map((e: { EventId: string }) => e.EventId)).toEqual(ids.slice(20));
    });
  });

  describe('listen', () => {
    let child: ChildProcess | undefined;
    let local: http.Server | undefined;
    afterAll(async () => {
      if (child?.pid && child.exitCode === null) child.kill('SIGTERM');
      await new Promise<void>((resolve) => (local ? local.close(() => resolve()) : resolve()));
    });

    it('forwards a real order.completed to a local plain-HTTP server, signed with the printed secret', async () => {
      const got: Received[] = [];
      local = http.createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          got.push({
            headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
            body: Buffer.concat(chunks).toString('utf8'),
            at: Date.now(),
          });
          res.writeHead(200).end();
        });
      });
      await new Promise<void>((resolve) => local?.listen(0, '127.0.0.1', resolve));
      const host = `127.0.0.1:${(local.address() as AddressInfo).port}`;

      let stdout = '';
      let stderr = '';
      child = spawn(
        process.execPath,
        ['--import', 'tsx', 'scripts/listen.ts', '--forward-to', `http://${host}/hooks`, '--api', stack.baseUrl],
        {
          env: { ...process.env, FC_CLIENT_ID: key.clientId, FC_CLIENT_SECRET: key.clientSecret },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
      const secret = await eventually(
        () => /signing secret is (\S+)/.exec(stdout)?.[1],
        (s) => s !== undefined || child?.exitCode !== null,
        { describe: () => `listen to print its secret (stdout ${stdout}, stderr ${stderr})`, timeoutMs: 30_000 },
      );
      expect(secret).toBeDefined();

      const order = await api('POST', '/v1/evaluate', {
        idempotencyKey: randomUUID(),
        externalOrderId: `listen-${randomUUID()}`,
        transaction: { amount: 1500, currency: 'USD', responseCode: '51' },
        paymentMethod: { cardNumber: '4111111111111111', expiryMonth: 12, expiryYear: 2090 },
      });
      expect(order.status).toBe(200);
      const raw = await eventually(
        () =>
          got.find(
            (r) => JSON.parse(r.body).OrderId === order.body.orderId && JSON.parse(r.body).Event === 'order.completed',
          ),
        (r) => r !== undefined,
        {
          describe: () => `order.completed forwarded by listen (stdout ${stdout}, stderr ${stderr})`,
          timeoutMs: 30_000,
        },
      );
      const forwarded = raw as Received;
      expect(forwarded.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(merchantVerifies(forwarded, secret as string, host)).toBe(true);
      expect(
        verifyWebhook({ body: forwarded.body, headers: forwarded.headers, host, secrets: [secret as string] }),
      ).toBe(true);
      expect(
        merchantVerifies(
          { ...forwarded, body: forwarded.body.replace('completed', 'refunded') },
          secret as string,
          host,
        ),
      ).toBe(false);
      const env = JSON.parse(forwarded.body);
      expect(env).toMatchObject({ Event: 'order.completed', Mid: merchant.mid, IsTestMode: true, IsResent: false });
      const events = await api('GET', '/v1/events?limit=500');
      const eventId = events.body.data.find(
        (e: { OrderId: string; Event: string }) => e.OrderId === order.body.orderId && e.Event === 'order.completed',
      )?.EventId;
      expect(eventId).toBeDefined();
      await eventually(
        () => stdout,
        (s) =>
          new RegExp(`^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d  order\\.completed  ${eventId} -> 200$`, 'm').test(s),
        { describe: () => `the listen line for ${eventId} (stdout ${stdout})` },
      );
    });
  });
});
