import { randomUUID } from 'node:crypto';
import { callApi } from '../helpers/api-client';
import { type DashboardMerchant, linkTokenOf, mintLink, seedDashboardMerchant } from '../helpers/dashboard';
import { eventually } from '../helpers/eventually';
import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { startTestStack, type TestStack } from '../helpers/stack';

/**
 * Dashboard links through the real API (docs/dashboard.md): minted with a merchant's bearer, they
 * read that merchant's orders and nothing else, never write, and are refused once expired or
 * tampered with, each refusal with its own identifier.
 */
describe('dashboard links', () => {
  let stack: TestStack;
  let a: DashboardMerchant;
  let b: DashboardMerchant;
  let linkA: string;
  let linkB: string;

  const get = (token: string, path: string) => callApi(stack.baseUrl, token, 'GET', path);
  const errorId = (answer: { body: { error?: { id: string } } }) => answer.body.error?.id;

  beforeAll(async () => {
    stack = await startTestStack();
    [a, b] = await Promise.all([
      seedDashboardMerchant(stack.baseUrl, stack.db, 'a'),
      seedDashboardMerchant(stack.baseUrl, stack.db, 'b'),
    ]);
    linkA = linkTokenOf((await mintLink(stack.baseUrl, a.token)).body.url);
    linkB = linkTokenOf((await mintLink(stack.baseUrl, b.token)).body.url);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('mints a link to the dashboard, its token in the fragment, 15 minutes by default and at most 60', async () => {
    const before = Math.floor(stack.clock.now().getTime() / 1000);
    const minted = await mintLink(stack.baseUrl, a.token);
    expect(minted.status).toBe(201);
    expect(minted.headers.get('cache-control')).toBe('no-store');
    const url = new URL(minted.body.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${stack.config.publicBaseUrl}/dashboard`);
    expect(linkTokenOf(minted.body.url)).toMatch(/^dl1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    const expires = Date.parse(minted.body.expiresAt) / 1000;
    expect(expires - before).toBeGreaterThanOrEqual(900);
    expect(expires - before).toBeLessThanOrEqual(901);

    const hour = await mintLink(stack.baseUrl, a.token, { expiresInSeconds: 3600 });
    expect(hour.status).toBe(201);
    for (const expiresInSeconds of [3601, 59, 'soon']) {
      const refused = await mintLink(stack.baseUrl, a.token, { expiresInSeconds });
      expect([refused.status, errorId(refused), refused.body.error.field]).toEqual([400, '400002', 'expiresInSeconds']);
    }
  });

  it('is minted by a merchant key with the payments scope only', async () => {
    const merchant = await seedMerchant(stack.db);
    const partner = await accessToken(stack.baseUrl, await seedKey(stack.db, { pid: merchant.pid }));
    const settingsOnly = await accessToken(stack.baseUrl, await seedKey(stack.db, merchant, ['settings']));
    expect(errorId(await mintLink(stack.baseUrl, partner))).toBe('403001');
    expect(errorId(await mintLink(stack.baseUrl, settingsOnly))).toBe('403002');
    // A link cannot mint another link: that needs the merchant's own bearer.
    expect(errorId(await mintLink(stack.baseUrl, linkA))).toBe('401002');
  });

  it("reads its merchant's orders, an order and its webhook deliveries", async () => {
    const search = await get(linkA, '/v1/orders');
    expect(search.status).toBe(200);
    expect(search.body.data.map((o: { orderId: string }) => o.orderId).sort()).toEqual(
      a.orders.map((o) => o.orderId).sort(),
    );
    const [first] = a.orders;
    const found = await get(linkA, `/v1/orders?externalOrderId=${encodeURIComponent(first?.externalOrderId ?? '')}`);
    expect(found.body.data.map((o: { orderId: string }) => o.orderId)).toEqual([first?.orderId]);
    const lookup = await get(linkA, `/v1/orders/${first?.orderId}`);
    expect([lookup.status, lookup.body.externalOrderId]).toEqual([200, first?.externalOrderId]);
    expect(Array.isArray(lookup.body.attempts)).toBe(true);
    // Never the orderSessionKey, which reports a challenge's result: the merchant's own bearer sees it.
    expect(search.body.data.filter((o: object) => 'orderSessionKey' in o)).toEqual([]);
    expect('orderSessionKey' in lookup.body).toBe(false);
    expect((await get(a.token, `/v1/orders/${first?.orderId}`)).body.orderSessionKey).toMatch(/^[0-9a-f-]{36}$/);
    expect((await get(a.token, '/v1/orders')).body.data[0].orderSessionKey).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("lists the webhooks sent about an order to the merchant's endpoints, with their attempts", async () => {
    // An endpoint nobody answers: each delivery is attempted, and fails, and is recorded.
    const endpoint = await callApi(stack.baseUrl, a.token, 'POST', '/v1/webhooks', {
      url: 'https://127.0.0.1:9/hooks',
      events: ['*'],
    });
    expect(endpoint.status).toBe(201);
    // A's next order, evaluated now that the endpoint exists.
    const order = await callApi(stack.baseUrl, a.token, 'POST', '/v1/evaluate', {
      idempotencyKey: randomUUID(),
      externalOrderId: `a-hooked-${randomUUID()}`,
      transaction: { amount: 1200, currency: 'USD', responseCode: '51' },
      paymentMethod: { cardNumber: '4111111111111111', expiryMonth: 12, expiryYear: 2090 },
    });
    expect(order.status).toBe(200);
    const path = `/v1/orders/${order.body.orderId}/webhook-deliveries`;
    const log = await eventually(
      () => get(linkA, path),
      (res) => res.status === 200 && res.body.data.some((d: { attempts: unknown[] }) => d.attempts.length > 0),
      { describe: `a delivery attempt listed at ${path}` },
    );
    expect(log.body.orderId).toBe(order.body.orderId);
    for (const delivery of log.body.data) expect(delivery.endpointId).toBe(endpoint.body.id);
    // The merchant's bearer reads the same log; B's link and B's bearer find no such order.
    expect((await get(a.token, path)).body.data.length).toBeGreaterThanOrEqual(log.body.data.length);
    expect(errorId(await get(linkB, path))).toBe('404003');
    expect(errorId(await get(b.token, path))).toBe('404003');
  });

  it("sees none of another merchant's orders", async () => {
    const [ofA] = a.orders;
    expect(errorId(await get(linkB, `/v1/orders/${ofA?.orderId}`))).toBe('404003');
    const search = await get(linkB, `/v1/orders?externalOrderId=${encodeURIComponent(ofA?.externalOrderId ?? '')}`);
    expect([search.status, search.body.data]).toEqual([200, []]);
    const all = await get(linkB, '/v1/orders');
    expect(all.body.data.map((o: { orderId: string }) => o.orderId).sort()).toEqual(
      b.orders.map((o) => o.orderId).sort(),
    );
  });

  it('never writes, and is no bearer anywhere else', async () => {
    const [ofA] = a.orders;
    const writes: Array<[string, string, unknown]> = [
      ['POST', `/v1/orders/${ofA?.orderId}/cancel`, {}],
      ['POST', `/v1/orders/${ofA?.orderId}/refund`, {}],
      ['POST', '/v1/capture', { idempotencyKey: randomUUID(), orderId: ofA?.orderId }],
      ['POST', '/v1/evaluate', {}],
      ['POST', '/v1/webhooks', { url: 'https://hooks.example.com/x', events: ['*'] }],
      ['GET', '/v1/webhooks', undefined],
      ['GET', '/v1/events', undefined],
      ['GET', `/v1/merchants/${a.mid}/settings`, undefined],
      ['GET', '/v1/api-keys', undefined],
    ];
    for (const [method, path, body] of writes) {
      const refused = await callApi(stack.baseUrl, linkA, method, path, body);
      expect([method, path, refused.status, errorId(refused)]).toEqual([method, path, 401, '401002']);
    }
    // Nothing changed: the order is as it was.
    expect((await get(a.token, `/v1/orders/${ofA?.orderId}`)).body.statusName).toBe('SUCCESS');
  });

  it('is refused when tampered with (401005) or expired (401006)', async () => {
    const [prefix, body, signature] = linkA.split('.') as [string, string, string];
    const otherMerchant = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), m: b.mid }),
    ).toString('base64url');
    const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const forged of [
      `${prefix}.${otherMerchant}.${signature}`,
      `${prefix}.${body}.${flipped}`,
      `${prefix}.${body}`,
      `${prefix}.${body}.${signature}.x`,
    ]) {
      const refused = await get(forged, '/v1/orders');
      expect([refused.status, errorId(refused)]).toEqual([401, '401005']);
    }
    const short = linkTokenOf((await mintLink(stack.baseUrl, a.token, { expiresInSeconds: 60 })).body.url);
    expect((await get(short, '/v1/orders')).status).toBe(200);
    stack.clock.advance(61_000);
    const expired = await get(short, '/v1/orders');
    expect([expired.status, errorId(expired)]).toEqual([401, '401006']);
    expect(expired.headers.get('www-authenticate')).toContain('invalid_token');
  });

  it('dies with the API key that minted it (401005)', async () => {
    const merchant = await seedMerchant(stack.db);
    const key = await seedKey(stack.db, merchant);
    const token = await accessToken(stack.baseUrl, key);
    const link = linkTokenOf((await mintLink(stack.baseUrl, token)).body.url);
    expect((await get(link, '/v1/orders')).status).toBe(200);
    expect((await callApi(stack.baseUrl, token, 'DELETE', `/v1/api-keys/${key.clientId}`)).status).toBe(200);
    const refused = await get(link, '/v1/orders');
    expect([refused.status, errorId(refused)]).toEqual([401, '401005']);
  });

  it('dies when the key that minted it loses the payments scope (401005)', async () => {
    const merchant = await seedMerchant(stack.db);
    const key = await seedKey(stack.db, merchant, ['payments', 'api_keys']);
    const token = await accessToken(stack.baseUrl, key);
    const link = linkTokenOf((await mintLink(stack.baseUrl, token)).body.url);
    expect((await get(link, '/v1/orders')).status).toBe(200);
    const changed = await callApi(stack.baseUrl, token, 'PUT', `/v1/api-keys/${key.clientId}`, {
      scopes: ['api_keys'],
    });
    expect(changed.status).toBe(200);
    const refused = await get(link, '/v1/orders');
    expect([refused.status, errorId(refused)]).toEqual([401, '401005']);
  });
});
