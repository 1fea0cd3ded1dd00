import { randomUUID } from 'node:crypto';
import { createApp } from '../../src/api/app';
import { MAX_JSON_BODY } from '../../src/api/middleware/json-body';
import { WIDGET_API_PATHS } from '../../src/api/routes/widget';
import { MAX_JSON_DEPTH } from '../../src/domain/json-structure';
import { WIDGET_LIMITS } from '../../src/domain/widget-signals';
import { callApi } from '../helpers/api-client';
import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { orderRow } from '../helpers/order-row';
import { startTestStack, type TestStack } from '../helpers/stack';
import { storedState } from '../helpers/stored-state';

/**
 * JSON bodies nested deeper than MAX_JSON_DEPTH, or with a key twice in one object, answer 400
 * malformed_json (400001) on every route that takes a body, and change nothing (docs/errors.md,
 * "Request bodies"). Before: 50,000 levels answered 500 on the order routes (stack overflow in
 * withoutNulls) and `"amount":1999,"amount":7` stored 7. The routes are read from the app's own
 * router, so a new route is covered without touching this file.
 */

const ADMIN = `admin-${randomUUID()}-${randomUUID()}`;
const ORIGIN = 'https://shop.example';
const nextYear = new Date().getUTCFullYear() + 1;
const DEEP = 50_000;

const deepArrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const deepObjects = (depth: number) => `${'{"":'.repeat(depth)}1${'}'.repeat(depth)}`;

/** The deepest nesting up to DEEP whose text fits `cap` bytes (the widget's cap is 16 KB). */
const depthWithin = (cap: number, bytesPerLevel: number) => Math.min(DEEP, Math.floor((cap - 8) / bytesPerLevel));

interface Answer {
  status: number;
  text: string;
  /** The error object: `error` in the one error shape, the body itself in the RFC 6749 shape. */
  error: Record<string, unknown> | undefined;
  body: Record<string, unknown> | undefined;
}

describe('JSON body structure: nesting depth and duplicate keys', () => {
  let stack: TestStack;
  let merchant: Awaited<ReturnType<typeof seedMerchant>>;
  let token: string;
  let siteId: string;

  const evaluateBody = () => ({
    idempotencyKey: randomUUID(),
    externalOrderId: `shop-${randomUUID()}`,
    transaction: { amount: 1999, currency: 'USD', responseCode: '51', declinedAtUtc: new Date().toISOString() },
    paymentMethod: { cardNumber: '4111111111111111', expiryMonth: 12, expiryYear: nextYear, holderName: 'Ann Lee' },
  });

  async function send(method: string, path: string, body: string): Promise<Answer> {
    const res = await fetch(`${stack.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        origin: ORIGIN,
        // The widget's own parser takes what navigator.sendBeacon sends.
        'content-type': WIDGET_API_PATHS.test(path) ? 'text/plain;charset=UTF-8' : 'application/json',
      },
      body,
    });
    const text = await res.text();
    let parsed: Record<string, unknown> | undefined;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const error = (typeof parsed?.error === 'object' ? parsed.error : parsed) as Record<string, unknown> | undefined;
    return { status: res.status, text, error, body: parsed };
  }

  /** Every route of the app that takes a body, as `METHOD /router/path`. */
  function routesWithBodies(): string[] {
    const app = createApp({
      config: stack.config,
      db: stack.db,
      temporal: stack.connection,
      temporalClient: stack.client,
      logger: stack.logs.logger,
    });
    const dispatch = app.middleware.find((m) => (m as { router?: unknown }).router) as unknown as {
      router: { stack: Array<{ methods: string[]; path: string }> };
    };
    const routes = dispatch.router.stack.flatMap((layer) =>
      layer.methods.filter((m) => ['POST', 'PUT', 'PATCH'].includes(m)).map((m) => `${m} ${layer.path}`),
    );
    return [...new Set(routes)];
  }

  /** The route's URL: the merchant's mid and site where it names them, a fresh id elsewhere. */
  function url(route: string): { method: string; path: string } {
    const [method, template] = route.split(' ') as [string, string];
    const values: Record<string, string> = { mid: merchant.mid, siteId };
    return { method, path: template.replace(/:([A-Za-z]+)/g, (_, name: string) => values[name] ?? randomUUID()) };
  }

  const bodyCap = (path: string) => (WIDGET_API_PATHS.test(path) ? WIDGET_LIMITS.maxBodyBytes : 256 * 1024);

  beforeAll(async () => {
    stack = await startTestStack({ env: { ADMIN_API_TOKEN: ADMIN } });
    merchant = await seedMerchant(stack.db);
    token = await accessToken(stack.baseUrl, await seedKey(stack.db, merchant));
    const site = await callApi(stack.baseUrl, token, 'POST', `/v1/merchants/${merchant.mid}/sites`, {
      name: 'Shop',
      allowedOrigins: [ORIGIN],
    });
    expect(site.status).toBe(201);
    siteId = site.body.siteId;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('reads the routes from the app: the order, token, widget and back-office routes are there', () => {
    expect(MAX_JSON_BODY).toBe('256kb'); // bodyCap's figure for the JSON routes
    const routes = routesWithBodies();
    expect(routes.length).toBeGreaterThan(30);
    expect(routes).toEqual(
      expect.arrayContaining([
        'POST /v1/evaluate',
        'POST /v1/capture',
        'POST /v1/orders/:id/cancel',
        'POST /v1/orders/:externalOrderId/external-cancel',
        'POST /v1/orders/:id/refund',
        'POST /v1/tokenize',
        'POST /v1/oauth2/token',
        'POST /v1/api-keys',
        'POST /v1/webhooks',
        'POST /v1/applications',
        'POST /v1/admin/partners',
        'POST /v1/widget/:mid/:siteId/signals',
      ]),
    );
  });

  it(`answers 400 400001 to bodies nested ${DEEP} deep (objects and arrays) on every route, changing nothing`, async () => {
    const before = await storedState(stack.db);
    const failures: string[] = [];
    for (const route of routesWithBodies()) {
      const { method, path } = url(route);
      const cap = bodyCap(path);
      for (const [shape, body] of [
        ['arrays', deepArrays(depthWithin(cap, 2))],
        ['objects', deepObjects(depthWithin(cap, 5))],
      ] as const) {
        expect(Buffer.byteLength(body)).toBeLessThan(cap);
        const res = await send(method, path, body);
        if (res.status !== 400 || res.error?.id !== '400001' || res.error?.name !== 'malformed_json') {
          failures.push(`${route} (${shape}): ${res.status} ${res.text.slice(0, 160)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(await storedState(stack.db)).toEqual(before);
  }, 240_000);

  it('answers 400 400001 naming a repeated key (its dotted path, any depth, escaped or not) on every route', async () => {
    const cases = [
      ['{"amount":1999,"amount":7}', 'amount'],
      ['{"transaction":{"amount":1999,"currency":"USD","\\u0061mount":7}}', 'transaction.amount'],
      ['{"v":1,"signals":[{"kind":"a"},{"kind":"b","t":1,"kind":"c"}]}', 'signals.1.kind'],
    ] as const;
    const before = await storedState(stack.db);
    const failures: string[] = [];
    for (const route of routesWithBodies()) {
      const { method, path } = url(route);
      for (const [body, field] of cases) {
        const res = await send(method, path, body);
        if (res.status !== 400 || res.error?.id !== '400001' || res.error?.field !== field) {
          failures.push(`${route} ${body}: ${res.status} ${res.text.slice(0, 160)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(await storedState(stack.db)).toEqual(before);
  }, 240_000);

  it('refuses "amount":1999,"amount":7 in a real evaluate: nothing stored, and the body is fine without it', async () => {
    const body = evaluateBody();
    const text = JSON.stringify(body).replace('"amount":1999,', '"amount":1999,"amount":7,');
    const before = await storedState(stack.db);
    const refused = await send('POST', '/v1/evaluate', text);
    expect(refused.status).toBe(400);
    expect(refused.error).toMatchObject({ id: '400001', name: 'malformed_json', field: 'transaction.amount' });
    expect(await storedState(stack.db)).toEqual(before);
    const accepted = await send('POST', '/v1/evaluate', JSON.stringify(body));
    expect(accepted.status).toBe(200);
    expect(Number((await orderRow(stack.db, String(accepted.body?.orderId))).amount)).toBe(1999);
  });

  it(`takes an unknown field nested to the ${MAX_JSON_DEPTH}-level limit and refuses one level more`, async () => {
    // The body itself is the first level; ExtraData (FlexCharge, accepted and dropped) holds the rest.
    const extra = (levels: number) => `${'{"x":'.repeat(levels)}null${'}'.repeat(levels)}`;
    const withExtra = (levels: number) =>
      JSON.stringify(evaluateBody()).replace(/^\{/, () => `{"ExtraData":${extra(levels)},`);
    expect((await send('POST', '/v1/evaluate', withExtra(MAX_JSON_DEPTH - 1))).status).toBe(200);
    const tooDeep = await send('POST', '/v1/evaluate', withExtra(MAX_JSON_DEPTH));
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.error).toMatchObject({ id: '400001', name: 'malformed_json' });
  });

  it('answers on the token endpoint in its RFC 6749 shape', async () => {
    for (const [body, field] of [
      ['{"grant_type":"client_credentials","grant_type":"client_credentials"}', 'grant_type'],
      [deepArrays(DEEP), undefined],
      ['{"grant_type":', undefined], // malformed JSON too, as RFC 6749 wants
    ] as const) {
      const res = await send('POST', '/v1/oauth2/token', body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: 'invalid_request',
        error_description: expect.any(String),
        id: '400001',
        name: 'malformed_json',
        ...(field ? { field } : {}),
        error_uri: '/docs/errors#400001',
        doc_url: '/docs/errors#400001',
        requestId: expect.any(String),
      });
    }
  });
});
