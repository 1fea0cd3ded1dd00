import { randomUUID } from 'node:crypto';
import { type IncomingHttpHeaders, request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { DEFAULT_WIDGET_CONFIG } from '../../src/domain/widget-config';
import { WIDGET_SENSE_KEY_RATE } from '../../src/domain/widget-signals';
import { callApi } from '../helpers/api-client';
import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { startTestStack, type TestStack } from '../helpers/stack';
import { storedSession, storedSignals } from '../helpers/widget-page';

const ORIGIN = 'https://shop.example';
const nextYear = new Date().getUTCFullYear() + 1;

/**
 * The widget's endpoints over HTTP, as the browser would call them (with an Origin header): the
 * script, the configuration fetch, signal ingestion with its CORS, sizes and rates, the portal's
 * site widget settings, and what evaluate makes of a senseKey.
 */
describe('widget endpoints', () => {
  let stack: TestStack;
  let token: string;
  let mid: string;
  let siteId: string;

  beforeAll(async () => {
    stack = await startTestStack();
    const merchant = await seedMerchant(stack.db);
    mid = merchant.mid;
    token = await accessToken(stack.baseUrl, await seedKey(stack.db, merchant));
    siteId = (await api('POST', `/v1/merchants/${mid}/sites`, { name: 'Shop', allowedOrigins: [ORIGIN] })).body.siteId;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const api = (method: string, path: string, body?: unknown, as = token) =>
    callApi(stack.baseUrl, as, method, path, body);

  /** A browser's request to a widget endpoint: an Origin, no credentials. */
  async function widget(
    method: string,
    path: string,
    options: { origin?: string | null; body?: string; type?: string; headers?: Record<string, string> } = {},
  ) {
    const origin = options.origin === undefined ? ORIGIN : options.origin;
    const res = await fetch(`${stack.baseUrl}${path}`, {
      method,
      headers: {
        ...(origin ? { origin } : {}),
        ...(options.body !== undefined ? { 'content-type': options.type ?? 'text/plain;charset=UTF-8' } : {}),
        ...options.headers,
      },
      body: options.body,
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  }

  const batch = (overrides: Record<string, unknown> = {}) => ({
    v: 1,
    senseKey: randomUUID(),
    externalOrderId: null,
    signals: [
      { kind: 'fingerprint', t: 120, hash: 'a'.repeat(64), traits: 12 },
      {
        kind: 'interactions',
        t: 3000,
        counts: {
          clicks: 2,
          keys: 30,
          pointerMoves: 10,
          scrolls: 1,
          touches: 0,
          focusChanges: 3,
          pastes: 0,
          copies: 0,
        },
        timings: { firstInteractionMs: 400, dwellMs: 3000, meanKeyIntervalMs: 140 },
      },
    ],
    ...overrides,
  });
  /** A plain GET through node:http: raw bytes, headers exactly as sent. */
  const get = (path: string, headers: Record<string, string>) =>
    new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      request(`${stack.baseUrl}${path}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      })
        .on('error', reject)
        .end();
    });
  const signalsPath = (m = mid, s = siteId) => `/v1/widget/${m}/${s}/signals`;
  const send = (body: unknown, options: Parameters<typeof widget>[2] = {}) =>
    widget('POST', signalsPath(), { body: JSON.stringify(body), ...options });

  describe('the script at {widget_url}', () => {
    it('serves /widget/fc.js with a short cache and its content-hashed URL with an immutable one', async () => {
      const loader = await fetch(`${stack.baseUrl}/widget/fc.js`);
      expect(loader.status).toBe(200);
      expect(loader.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
      expect(loader.headers.get('cache-control')).toBe('public, max-age=300, stale-while-revalidate=60');
      const code = await loader.text();
      expect(code).toContain('fc_sk');
      const hashed = /^<\/widget\/fc\.([0-9a-f]{16})\.js>/.exec(loader.headers.get('link') ?? '')?.[1];
      expect(hashed).toBeDefined();
      expect(loader.headers.get('etag')).toBe(`"${hashed}"`);

      const immutable = await fetch(`${stack.baseUrl}/widget/fc.${hashed}.js`);
      expect(immutable.status).toBe(200);
      expect(immutable.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(await immutable.text()).toBe(code);

      // node:http, not fetch: fetch turns a hand-set If-None-Match into Cache-Control: no-cache.
      const revalidated = await get('/widget/fc.js', { 'if-none-match': `"${hashed}"` });
      expect(revalidated.status).toBe(304);
      expect((await fetch(`${stack.baseUrl}/widget/fc.0123456789abcdef.js`)).status).toBe(404);
    });

    it('is small: gzip-encoded on request, under 15 KB', async () => {
      const gz = await get('/widget/fc.js', { 'accept-encoding': 'gzip' });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gz.body.length).toBeLessThan(15 * 1024);
      expect(gunzipSync(gz.body).toString('utf8')).toBe(await (await fetch(`${stack.baseUrl}/widget/fc.js`)).text());
    });
  });

  describe('GET /v1/widget/{mid}/{siteId}/config', () => {
    it('answers the defaults for a site never configured, to an allowed origin (CORS)', async () => {
      const res = await widget('GET', `/v1/widget/${mid}/${siteId}/config`);
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
      expect(res.headers.get('vary')).toContain('Origin');
      expect(res.body).toEqual({
        mid,
        siteId,
        ...DEFAULT_WIDGET_CONFIG,
        limits: { flushIntervalMs: 2000, maxSignalsPerBatch: 50, maxBodyBytes: 16384 },
      });
    });

    it('refuses an origin the site does not allow, or none, with 403010 and no CORS header', async () => {
      for (const origin of ['https://evil.example', 'https://shop.example:8443', null]) {
        const res = await widget('GET', `/v1/widget/${mid}/${siteId}/config`, { origin });
        expect([origin, res.status, res.body.error.id]).toEqual([origin, 403, '403010']);
        expect(res.headers.get('access-control-allow-origin')).toBeNull();
      }
    });

    it('answers 404010 unless the MID and siteId exist and belong together', async () => {
      const other = await seedMerchant(stack.db);
      for (const path of [
        `/v1/widget/${other.mid}/${siteId}/config`,
        `/v1/widget/${mid}/${randomUUID()}/config`,
        `/v1/widget/not-a-guid/${siteId}/config`,
      ]) {
        const res = await widget('GET', path);
        expect([path, res.status, res.body.error.id]).toEqual([path, 404, '404010']);
      }
    });

    it('answers the CORS preflight for allowed origins only', async () => {
      const preflight = (origin: string) =>
        widget('OPTIONS', signalsPath(), {
          origin,
          headers: { 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
        });
      const ok = await preflight(ORIGIN);
      expect(ok.status).toBe(204);
      expect(ok.headers.get('access-control-allow-origin')).toBe(ORIGIN);
      expect(ok.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
      expect(ok.headers.get('access-control-allow-headers')).toBe('content-type');
      const refused = await preflight('https://evil.example');
      expect(refused.status).toBe(403);
      expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    });
  });

  describe('POST /v1/widget/{mid}/{siteId}/signals', () => {
    it('stores a batch under its senseKey (text/plain as sendBeacon sends it, or JSON): 202', async () => {
      const body = batch({ externalOrderId: 'order-1' });
      const res = await send(body);
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ senseKey: body.senseKey, accepted: 2 });
      expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
      const session = await storedSession(stack.db, body.senseKey);
      expect(session).toMatchObject({
        merchant_id: mid,
        site_id: siteId,
        external_order_id: 'order-1',
        fingerprint: 'a'.repeat(64),
        signal_count: 2,
      });
      const json = await send(batch({ senseKey: body.senseKey, externalOrderId: null }), { type: 'application/json' });
      expect(json.status).toBe(202);
      const after = await storedSession(stack.db, body.senseKey);
      expect(after).toMatchObject({ external_order_id: 'order-1', signal_count: 4 }); // the binding is kept
      expect(after?.last_seen_at.getTime()).toBeGreaterThanOrEqual(session?.last_seen_at.getTime() ?? Number.NaN);
      expect((await storedSignals(stack.db, body.senseKey)).map((s) => s.kind)).toEqual([
        'fingerprint',
        'interactions',
        'fingerprint',
        'interactions',
      ]);
      // A batch naming another order for the bound key (a stale ?senseKey= link) does not move it.
      expect((await send(batch({ senseKey: body.senseKey, externalOrderId: 'order-2' }))).status).toBe(202);
      expect(await storedSession(stack.db, body.senseKey)).toMatchObject({ external_order_id: 'order-1' });
    });

    it('rejects junk with 4xx and stores nothing', async () => {
      const key = randomUUID();
      const cases: Array<[string, { body: string; type?: string }, number, string]> = [
        ['not JSON', { body: '{"v":1,' }, 400, '400001'],
        ['form encoded', { body: 'v=1', type: 'application/x-www-form-urlencoded' }, 415, '415001'],
        [
          'unknown kind',
          { body: JSON.stringify(batch({ senseKey: key, signals: [{ kind: 'keys', t: 1 }] })) },
          400,
          '400002',
        ],
        [
          'raw field',
          {
            body: JSON.stringify(
              batch({ senseKey: key, signals: [{ kind: 'email', t: 1, hash: 'b'.repeat(64), value: 'a@b.example' }] }),
            ),
          },
          400,
          '400002',
        ],
        [
          'email not hashed',
          { body: JSON.stringify(batch({ senseKey: key, signals: [{ kind: 'email', t: 1, hash: 'a@b.example' }] })) },
          400,
          '400002',
        ],
        ['not a senseKey', { body: JSON.stringify(batch({ senseKey: 'abc' })) }, 400, '400002'],
        ['empty, unbound', { body: JSON.stringify(batch({ senseKey: key, signals: [] })) }, 400, '400002'],
        [
          'too many',
          {
            body: JSON.stringify(
              batch({ senseKey: key, signals: Array(51).fill({ kind: 'route', t: 1, path: '/', trigger: 'load' }) }),
            ),
          },
          400,
          '400002',
        ],
        [
          'over 16 KB',
          { body: JSON.stringify({ ...batch({ senseKey: key }), pad: 'x'.repeat(17_000) }) },
          413,
          '413010',
        ],
      ];
      for (const [name, request, status, id] of cases) {
        const res = await widget('POST', signalsPath(), request);
        expect([name, res.status, res.body?.error?.id]).toEqual([name, status, id]);
      }
      expect(await storedSession(stack.db, key)).toBeUndefined();
    });

    it('refuses another origin (403010), another merchant site pair (404010), and stores nothing', async () => {
      const body = batch();
      expect((await send(body, { origin: 'https://evil.example' })).body.error.id).toBe('403010');
      expect((await send(body, { origin: null })).body.error.id).toBe('403010');
      const other = await seedMerchant(stack.db);
      const res = await widget('POST', signalsPath(other.mid, siteId), { body: JSON.stringify(body) });
      expect(res.body.error.id).toBe('404010');
      expect(await storedSession(stack.db, body.senseKey)).toBeUndefined();
    });

    it('limits the rate per senseKey (429010 with Retry-After); other keys are not affected', async () => {
      const senseKey = randomUUID();
      const statuses: number[] = [];
      let refused: Awaited<ReturnType<typeof send>> | undefined;
      for (let i = 0; i < WIDGET_SENSE_KEY_RATE.burst + 3; i += 1) {
        const res = await send(batch({ senseKey }));
        statuses.push(res.status);
        if (res.status === 429) refused = res;
      }
      expect(statuses.filter((s) => s === 202).length).toBeGreaterThanOrEqual(WIDGET_SENSE_KEY_RATE.burst);
      expect(statuses.filter((s) => s === 202).length).toBeLessThan(statuses.length);
      expect(refused?.body.error.id).toBe('429010');
      expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      const session = await storedSession(stack.db, senseKey);
      expect(session?.signal_count).toBe(2 * statuses.filter((s) => s === 202).length); // refused batches not stored
      expect((await send(batch())).status).toBe(202);
    });
  });

  describe('site widget settings (portal)', () => {
    const path = () => `/v1/merchants/${mid}/sites/${siteId}/widget`;

    it('shows the defaults with the widget URL and snippet, and changes what a PUT names', async () => {
      const shown = await api('GET', path());
      expect(shown.status).toBe(200);
      expect(shown.body).toMatchObject({ mid, siteId, ...DEFAULT_WIDGET_CONFIG });
      expect(shown.body.widgetUrl).toBe(stack.config.widget.url);
      expect(shown.body.snippet).toContain(`fc('init', '${mid}', '${siteId}')`);
      expect(shown.body.snippet.split('\n')).toHaveLength(3);

      const changed = await api('PUT', path(), {
        collect: { formScraping: true, interactions: false },
        selectors: { forms: ['#shipping', 'form.checkout > input'] },
      });
      expect(changed.status).toBe(200);
      expect(changed.body.collect).toEqual({
        ...DEFAULT_WIDGET_CONFIG.collect,
        formScraping: true,
        interactions: false,
      });
      expect(changed.body.selectors).toEqual({
        email: DEFAULT_WIDGET_CONFIG.selectors.email,
        forms: ['#shipping', 'form.checkout > input'],
      });
      const served = await widget('GET', `/v1/widget/${mid}/${siteId}/config`);
      expect(served.body.collect).toEqual(changed.body.collect);
      expect(served.body.selectors).toEqual(changed.body.selectors);
    });

    it('validates (400002, nothing changed), and keeps other merchants out (403001, 404010)', async () => {
      const before = (await api('GET', path())).body;
      for (const [body, field] of [
        [{}, undefined],
        [{ collect: { sonar: true } }, 'collect'],
        [{ selectors: { email: ['<script>'] } }, 'selectors.email.0'],
        [{ selectors: { forms: Array(11).fill('#a') } }, 'selectors.forms'],
      ] as const) {
        const res = await api('PUT', path(), body);
        expect([res.status, res.body.error.id, res.body.error.field]).toEqual([400, '400002', field]);
      }
      expect((await api('GET', path())).body).toEqual(before);

      const other = await seedMerchant(stack.db);
      const otherToken = await accessToken(stack.baseUrl, await seedKey(stack.db, other));
      expect((await api('GET', path(), undefined, otherToken)).body.error.id).toBe('403001');
      expect((await api('GET', `/v1/merchants/${mid}/sites/${randomUUID()}/widget`)).body.error.id).toBe('404010');
    });
  });

  describe('evaluate and the senseKey', () => {
    const evaluate = async (senseKey: string | undefined, externalOrderId: string, as = token) => {
      const res = await api(
        'POST',
        '/v1/evaluate',
        {
          idempotencyKey: randomUUID(),
          externalOrderId,
          ...(senseKey ? { senseKey } : {}),
          transaction: { amount: 2500, currency: 'USD', responseCode: '51' },
          paymentMethod: { cardNumber: '4111111111111111', expiryMonth: 12, expiryYear: nextYear },
        },
        as,
      );
      expect(res.status).toBe(200);
      return (await api('GET', `/v1/orders/${res.body.orderId}`, undefined, as)).body.scoring as {
        deviceSignalsUsed: boolean;
        reasons: string[];
      };
    };

    it('uses a fresh session whose bound order matches, and no other', async () => {
      const bound = batch({ externalOrderId: 'shop-order-1' });
      await send(bound);
      const unbound = batch();
      await send(unbound);

      expect(await evaluate(bound.senseKey, 'shop-order-1')).toMatchObject({ deviceSignalsUsed: true });
      expect((await evaluate(bound.senseKey.toUpperCase(), 'shop-order-1')).deviceSignalsUsed).toBe(true);
      // senseKey alone is a sufficient join key when the page bound no order.
      expect((await evaluate(unbound.senseKey, `server-minted-${randomUUID()}`)).deviceSignalsUsed).toBe(true);
      // The page bound another order.
      expect((await evaluate(bound.senseKey, `shop-order-2-${randomUUID()}`)).deviceSignalsUsed).toBe(false);
      // Absent, unknown or not a UUID.
      expect((await evaluate(undefined, `o-${randomUUID()}`)).reasons).toContain('no_device_signals:0');
      expect((await evaluate(randomUUID(), `o-${randomUUID()}`)).deviceSignalsUsed).toBe(false);
      expect((await evaluate('not-a-sense-key', `o-${randomUUID()}`)).deviceSignalsUsed).toBe(false);
      // Another merchant's evaluate never sees this merchant's session.
      const other = await seedMerchant(stack.db);
      const otherToken = await accessToken(stack.baseUrl, await seedKey(stack.db, other));
      expect((await evaluate(unbound.senseKey, `o-${randomUUID()}`, otherToken)).deviceSignalsUsed).toBe(false);
    });

    it('ignores a session last seen more than 30 minutes ago (stale)', async () => {
      const almost = batch();
      const stale = batch();
      await send(almost);
      await send(stale);
      const age = (senseKey: string, minutes: number) =>
        stack
          .db('sense_sessions')
          .where({ sense_key: senseKey })
          .update({ last_seen_at: stack.db.raw(`now() - interval '${minutes} minutes'`) });
      await age(almost.senseKey, 29);
      await age(stale.senseKey, 31);
      expect((await evaluate(almost.senseKey, `o-${randomUUID()}`)).deviceSignalsUsed).toBe(true);
      expect((await evaluate(stale.senseKey, `o-${randomUUID()}`)).deviceSignalsUsed).toBe(false);
    });
  });
});
