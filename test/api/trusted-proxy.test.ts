import { WIDGET_ADDRESS_RATE } from '../../src/domain/widget-signals';
import { callApi } from '../helpers/api-client';
import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { requestFrom } from '../helpers/from-address';
import { startTestStack, type TestStack } from '../helpers/stack';

/**
 * Behind an ingress every request comes from the proxy's address, so the per-address limits must
 * key on the client's address as the proxy saw it (TRUSTED_PROXY_HOPS, docs/rate-limits.md): else
 * one page visitor spending a merchant's tokenize budget refuses every shopper of that merchant.
 * Only the entries the trusted proxies appended count: a client writing its own is not believed.
 */
const BURST = 5;
const nextYear = new Date().getUTCFullYear() + 1;
const card = { cardNumber: '4111111111111111', expiryMonth: 12, expiryYear: nextYear };
const INGRESS = '127.0.0.40'; // every request's TCP peer, as behind one ingress

describe('per-address limits behind a trusted proxy', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack({
      env: { TRUSTED_PROXY_HOPS: '1', RATE_LIMIT_BURST: String(BURST), RATE_LIMIT_PER_SECOND: '1' },
    });
    stack.clock.pause(); // no refill: only the requests below spend the buckets
  });
  afterAll(async () => {
    await stack?.stop();
  });

  /** A tokenization through the ingress, which appended `client` to what the client sent. */
  const tokenize = (key: string, forwardedFor: string) =>
    requestFrom(INGRESS, `${stack.baseUrl}/v1/tokenize`, {
      headers: { 'x-tokenization-key': key, 'x-forwarded-for': forwardedFor },
      body: card,
    });

  it("keys the tokenize budget on the client the ingress saw, not on the ingress, and not on the client's own claim", async () => {
    const m = await seedMerchant(stack.db);
    const flood = [];
    for (let i = 0; i <= BURST; i++) flood.push((await tokenize(m.tokenizationKey, '203.0.113.7')).status);
    expect(flood).toEqual([...Array(BURST).fill(201), 429]);
    // Another shopper behind the same ingress still tokenizes.
    expect((await tokenize(m.tokenizationKey, '203.0.113.8')).status).toBe(201);
    // The flooder claiming to be someone else: the ingress appended its real address, which counts.
    expect((await tokenize(m.tokenizationKey, '203.0.113.9, 203.0.113.7')).status).toBe(429);
  });

  it("keys a widget sender's own budget on its address before the site's: a flood from one spends none of its shoppers'", async () => {
    const m = await seedMerchant(stack.db);
    const bearer = await accessToken(stack.baseUrl, await seedKey(stack.db, m));
    const origin = 'https://shop.example.com';
    const site = await callApi(stack.baseUrl, bearer, 'POST', `/v1/merchants/${m.mid}/sites`, {
      name: 'Shop',
      allowedOrigins: [origin],
    });
    // Any script can send the site's Origin: it is no proof of a browser on the merchant's page.
    const config = (client: string) =>
      requestFrom(INGRESS, `${stack.baseUrl}/v1/widget/${m.mid}/${site.body.siteId}/config`, {
        headers: { origin, 'x-forwarded-for': client },
      });
    const flood = [];
    for (let i = 0; i <= WIDGET_ADDRESS_RATE.burst; i++) flood.push((await config('203.0.113.7')).status);
    expect(flood).toEqual([...Array(WIDGET_ADDRESS_RATE.burst).fill(200), 429]);
    expect((await config('203.0.113.7')).body.error.id).toBe('429010');
    expect((await config('203.0.113.8')).status).toBe(200);
  });
});
