import { createHash, randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { WIDGET_LIMITS } from '../../src/domain/widget-signals';
import { launchChromium } from '../helpers/chromium';
import { eventually } from '../helpers/eventually';
import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { type MerchantSite, startMerchantSite } from '../helpers/merchant-site';
import { startTestStack, type TestStack } from '../helpers/stack';
import { networkBarrier, snippetPage, storedSession, storedSignals } from '../helpers/widget-page';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const nextYear = new Date().getUTCFullYear() + 1;
const CHECKOUT_FORM = `
<form id="shipping" onsubmit="return false">
  <input id="fullName" name="fullName" autocomplete="name">
  <input id="postcode" name="postcode">
  <input id="email" name="email" type="email">
  <input id="cardNumber" name="cardNumber" autocomplete="cc-number">
  <input id="password" name="password" type="password">
  <input id="cc_number" name="cc_number">
  <input id="security_code" name="security_code">
  <input id="exp_month" name="exp_month">
  <input id="payment_ref" name="payment_ref">
  <input id="code" name="code">
</form>`;

/**
 * What the widget collects and where it goes, in Chromium: signals stored under the senseKey
 * (hashes, counts and lengths only), re-collection on single-page route changes, refusal of an
 * origin the site does not allow, and what evaluate makes of a fresh and of a stale senseKey.
 */
describe('the fc widget collecting signals in Chromium', () => {
  let stack: TestStack;
  let browser: Browser;
  let shop: MerchantSite;
  let foreign: MerchantSite;
  let mid: string;
  let siteId: string;
  let token: string;
  let context: BrowserContext;

  async function api(method: string, path: string, body?: unknown) {
    const res = await fetch(`${stack.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> & { [k: string]: never } };
  }

  beforeAll(async () => {
    [stack, browser, shop, foreign] = await Promise.all([
      startTestStack(),
      launchChromium(),
      startMerchantSite(),
      startMerchantSite(),
    ]);
    const merchant = await seedMerchant(stack.db);
    mid = merchant.mid;
    token = await accessToken(stack.baseUrl, await seedKey(stack.db, merchant));
    const site = await api('POST', `/v1/merchants/${mid}/sites`, { name: 'Shop', allowedOrigins: [shop.origin] });
    siteId = site.body.siteId as unknown as string;
    const configured = await api('PUT', `/v1/merchants/${mid}/sites/${siteId}/widget`, {
      collect: { formScraping: true },
      selectors: { forms: ['#shipping'] },
    });
    expect(configured.status).toBe(200);
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([shop?.close(), foreign?.close()]);
    await stack?.stop();
  });
  beforeEach(async () => {
    context = await browser.newContext({ ignoreHTTPSErrors: true });
  });
  afterEach(async () => {
    await context.close();
  });

  async function open(on: MerchantSite, path: string, body: string, ctx = context): Promise<Page> {
    on.page(path, snippetPage({ widgetUrl: `${stack.baseUrl}/widget/fc.js`, mid, siteId, body }));
    const page = await ctx.newPage();
    await page.goto(`${on.origin}${path}`);
    await page.waitForFunction(() => (window as unknown as { fc: { isStarted?: boolean } }).fc.isStarted === true);
    return page;
  }
  const fc = <T>(page: Page, body: string): Promise<T> =>
    page.evaluate(`(() => { const fc = window.fc; return ${body}; })()`) as Promise<T>;
  const filledName = (fields: unknown) =>
    (fields as Array<{ name: string; filled: boolean }>).some((f) => f.name === 'fullName' && f.filled);
  const kinds = async (senseKey: string) => (await storedSignals(stack.db, senseKey)).map((s) => s.kind);

  it('stores signals under the senseKey: fingerprint, interactions, hashed e-mail, scraped form, route; no raw values', async () => {
    const page = await open(shop, `/checkout-${randomUUID()}`, CHECKOUT_FORM);
    const typeInto = (selector: string, text: string) => page.locator(selector).pressSequentially(text);
    await typeInto('#fullName', 'Ada Lovelace');
    await typeInto('#postcode', 'EC1A 1BB');
    await typeInto('#email', '  Shopper.One@Example.COM ');
    await typeInto('#cardNumber', '4111111111111111');
    await typeInto('#password', 'hunter2-secret');
    // Card fields under the names payment forms use, and card data under names that say nothing.
    await typeInto('#cc_number', '4242 4242 4242 4242');
    await typeInto('#security_code', '737');
    await typeInto('#exp_month', '03');
    await typeInto('#payment_ref', '4000 0566 5566 5556');
    await typeInto('#code', '123');
    await page.mouse.click(5, 5);
    const externalOrderId = `web-${randomUUID()}`;
    const senseKey = await fc<string>(page, `fc.setOrderId({ externalOrderId: '${externalOrderId}' })`);

    // Interactions are sent in batches: wait for the one that counts the typing and the click
    // (on a loaded machine a batch with the keys alone may be sent first).
    const typed = (s: Awaited<ReturnType<typeof storedSignals>>) =>
      s.some((x) => {
        const counts = x.data.counts as { keys: number; clicks: number } | undefined;
        return x.kind === 'interactions' && !!counts && counts.keys >= 40 && counts.clicks >= 1;
      });
    const signals = await eventually(
      () => storedSignals(stack.db, senseKey),
      (s) =>
        ['fingerprint', 'email', 'form', 'route'].every((k) => s.some((x) => x.kind === k)) &&
        typed(s) &&
        s.some((x) => x.kind === 'form' && filledName(x.data.fields)),
      { describe: `fingerprint, typed interactions, email, the filled form and route under ${senseKey}` },
    );
    expect(new Set(signals.map((s) => s.kind))).toEqual(
      new Set(['fingerprint', 'interactions', 'email', 'form', 'route']),
    );
    const session = await storedSession(stack.db, senseKey);
    expect(session).toMatchObject({ merchant_id: mid, site_id: siteId, external_order_id: externalOrderId });
    expect(session?.fingerprint).toMatch(/^[0-9a-f]{64}$/);

    const email = signals.find((s) => s.kind === 'email');
    expect(email?.data).toEqual({ t: expect.any(Number), hash: sha256('shopper.one@example.com') });
    // The page is also scraped at load, before anything is typed: take the scrape made after typing.
    const form = signals.filter((s) => s.kind === 'form' && filledName(s.data.fields)).at(-1);
    const fields = form?.data.fields as Array<Record<string, unknown>>;
    // Never card or password fields, nor a value shaped like card data (none of it hashed).
    expect(fields.map((f) => f.name)).toEqual(['fullName', 'postcode', 'email']);
    const everyForm = JSON.stringify(signals.filter((s) => s.kind === 'form'));
    for (const secret of ['4242424242424242', '4242 4242 4242 4242', '737', '4000 0566 5566 5556', '123'])
      expect(everyForm).not.toContain(sha256(secret));
    expect(fields[0]).toEqual({
      name: 'fullName',
      type: 'text',
      filled: true,
      length: 12,
      hash: sha256('ada lovelace'),
    });
    // The latest totals (counts are cumulative; two batches may be stored out of order).
    const interactions = signals
      .filter((s) => s.kind === 'interactions')
      .sort((a, b) => Number(a.data.t) - Number(b.data.t))
      .at(-1)?.data as {
      counts: Record<string, number>;
      timings: Record<string, number | null>;
    };
    expect(interactions.counts).toMatchObject({ keys: expect.any(Number), clicks: 1 });
    expect(interactions.counts.keys).toBeGreaterThanOrEqual(40); // the characters typed, not what they were
    expect(interactions.timings.meanKeyIntervalMs).toEqual(expect.any(Number));
    expect(signals.find((s) => s.kind === 'route')?.data).toMatchObject({ trigger: 'load' });

    const stored = JSON.stringify(signals).toLowerCase();
    const userAgent = await page.evaluate(() => navigator.userAgent);
    for (const raw of ['ada', 'lovelace', 'ec1a', 'shopper.one', 'example.com', '4111', 'hunter2', userAgent]) {
      expect([raw, stored.includes(raw.toLowerCase())]).toEqual([raw, false]);
    }

    // The fingerprint is stable: another page load in the same browser hashes the same traits.
    const again = await open(shop, `/checkout-${randomUUID()}`, '<p>again</p>');
    await fc(again, "fc.setOrderId({ externalOrderId: 'another-order' })");
    const otherKey = await fc<string>(again, 'fc.getSenseKey()');
    const otherSession = await eventually(
      () => storedSession(stack.db, otherKey),
      (s) => Boolean(s?.fingerprint),
      { describe: `a session with a fingerprint under ${otherKey}` },
    );
    expect(otherSession?.fingerprint).toBe(session?.fingerprint);
  });

  it('re-collects on single-page route changes: pushState, replaceState and popstate', async () => {
    const app = `
<div id="app"><button id="go">Checkout</button></div>
<script>
  document.getElementById('go').addEventListener('click', () => {
    history.pushState({}, '', '/spa/checkout');
    document.getElementById('app').innerHTML =
      '<form id="shipping"><input type="email" name="email" value="spa.buyer@example.com"><input name="city" value="Lyon"></form>';
  });
</script>`;
    const page = await open(shop, '/spa', app);
    const senseKey = await fc<string>(page, 'fc.getSenseKey()');
    await eventually(
      () => kinds(senseKey),
      (k) => k.includes('route'),
      { describe: `the load route signal under ${senseKey}` },
    );
    await page.click('#go');
    const afterPush = await eventually(
      () => storedSignals(stack.db, senseKey),
      (s) => s.some((x) => x.kind === 'email') && s.some((x) => x.kind === 'form'),
      { describe: 'the email and form signals collected after pushState' },
    );
    const routes = () => afterPush.filter((s) => s.kind === 'route').map((s) => s.data);
    expect(routes()).toEqual([
      { t: expect.any(Number), path: '/spa', trigger: 'load' },
      { t: expect.any(Number), path: '/spa/checkout', trigger: 'pushState' },
    ]);
    const pushedAt = routes()[1]?.t as number;
    const email = afterPush.find((s) => s.kind === 'email')?.data;
    expect(email).toEqual({ t: expect.any(Number), hash: sha256('spa.buyer@example.com') });
    expect(email?.t as number).toBeGreaterThanOrEqual(pushedAt);
    const form = afterPush.find((s) => s.kind === 'form')?.data as { t: number; fields: Array<{ name: string }> };
    expect(form.t).toBeGreaterThanOrEqual(pushedAt);
    expect(form.fields.map((f) => f.name)).toEqual(['email', 'city']);

    // An e-mail in the path, percent-encoded as encodeURIComponent writes it: replaced, never sent.
    await page.evaluate(() => history.replaceState({}, '', `/spa/account/${encodeURIComponent('jane.doe@mail.com')}`));
    await page.evaluate(() => history.back());
    const all = await eventually(
      () => storedSignals(stack.db, senseKey),
      (s) => s.filter((x) => x.kind === 'route').length >= 4,
      { describe: 'four route signals: load, pushState, replaceState, popstate' },
    );
    expect(all.filter((s) => s.kind === 'route').map((s) => [s.data.path, s.data.trigger])).toEqual([
      ['/spa', 'load'],
      ['/spa/checkout', 'pushState'],
      ['/spa/account/:id', 'replaceState'],
      ['/spa', 'popstate'],
    ]);
    const snapshots = all.filter((s) => s.kind === 'interactions');
    expect(snapshots.length).toBeGreaterThanOrEqual(3); // load, and again after each route change
  });

  it('refuses a page whose origin the site does not allow: no configuration, nothing stored', async () => {
    const logsFrom = stack.logs.lines.length;
    await context.clock.install(); // the page's timers run when the test says
    let signalPosts = 0;
    context.on('request', (r) => {
      if (r.url().endsWith(`/v1/widget/${mid}/${siteId}/signals`)) signalPosts += 1;
    });
    const page = await open(foreign, `/checkout-${randomUUID()}`, CHECKOUT_FORM);
    const senseKey = await fc<string>(page, "fc.setOrderId({ externalOrderId: 'foreign-order' })");
    await page.fill('#email', 'someone@example.com');
    await page.keyboard.press('Tab');
    // The page tries on its own too: a beacon is sent whatever CORS says; a fetch is blocked.
    const signalsUrl = `${stack.baseUrl}/v1/widget/${mid}/${siteId}/signals`;
    const batch = JSON.stringify({
      v: 1,
      senseKey,
      externalOrderId: 'foreign-order',
      signals: [{ kind: 'route', t: 1, path: '/', trigger: 'load' }],
    });
    const attempts = await page.evaluate(
      async ({ url, body }) => ({
        beaconQueued: navigator.sendBeacon(url, body),
        fetch: await fetch(url, { method: 'POST', body, mode: 'cors' }).then(
          (r) => r.status,
          () => 'blocked',
        ),
      }),
      { url: signalsUrl, body: batch },
    );
    expect(attempts).toEqual({ beaconQueued: true, fetch: 'blocked' });
    // Past a flush interval (and then some): a widget that had started would have sent a batch.
    await page.clock.runFor(WIDGET_LIMITS.flushIntervalMs * 2);
    await networkBarrier(page, foreign.origin);
    expect(signalPosts).toBe(2); // the page's own beacon and fetch, nothing from the widget
    // The service has answered the config request and both signal posts.
    const widgetRequests = () =>
      stack.logs.lines
        .slice(logsFrom)
        .map((line) => JSON.parse(line) as { path?: string; status?: number })
        .filter((l) => l.path?.startsWith(`/v1/widget/${mid}/${siteId}/`) && l.status !== undefined);
    const refused = await eventually(
      widgetRequests,
      (r) => r.some((l) => l.path?.endsWith('/config')) && r.filter((l) => l.path?.endsWith('/signals')).length === 2,
      { describe: 'the access log lines of the config request and of the beacon and fetch of signals' },
    );
    expect(refused.some((l) => l.path?.endsWith('/config') && l.status === 403)).toBe(true);
    expect(refused.filter((l) => l.path?.endsWith('/signals') && l.status === 403)).toHaveLength(2);
    expect(refused.map((l) => l.status)).toEqual(refused.map(() => 403));
    expect(await storedSession(stack.db, senseKey)).toBeUndefined();
    expect(await storedSignals(stack.db, senseKey)).toEqual([]);
  });

  it('an evaluate with the page senseKey uses the device signals; one with a stale senseKey does not', async () => {
    const evaluate = async (senseKey: string, externalOrderId: string) => {
      const res = await api('POST', '/v1/evaluate', {
        idempotencyKey: randomUUID(),
        externalOrderId,
        senseKey,
        transaction: { amount: 2500, currency: 'USD', responseCode: '51' },
        paymentMethod: { cardNumber: '4111111111111111', expiryMonth: 12, expiryYear: nextYear },
      });
      expect(res.status).toBe(200);
      const order = await api('GET', `/v1/orders/${res.body.orderId}`);
      return order.body.scoring as unknown as { score: number; reasons: string[]; deviceSignalsUsed: boolean };
    };
    const checkout = async (ctx: BrowserContext) => {
      const page = await open(shop, `/checkout-${randomUUID()}`, CHECKOUT_FORM, ctx);
      const externalOrderId = `web-${randomUUID()}`;
      const senseKey = await fc<string>(page, `fc.setOrderId({ externalOrderId: '${externalOrderId}' })`);
      await eventually(
        () => storedSession(stack.db, senseKey),
        (s) => s?.external_order_id === externalOrderId && Boolean(s.fingerprint),
        { describe: `the session ${senseKey} bound to ${externalOrderId}, with its fingerprint` },
      );
      return { page, senseKey, externalOrderId };
    };

    const fresh = await checkout(context);
    const used = await evaluate(fresh.senseKey, fresh.externalOrderId);
    expect(used.deviceSignalsUsed).toBe(true);
    expect(used.reasons).toContain('device_signals:+10');

    const otherTab = await browser.newContext({ ignoreHTTPSErrors: true });
    try {
      // Every signals post of this tab, and how many the service has answered.
      const posts = { sent: 0, answered: 0 };
      const isSignals = (url: string) => url.endsWith(`/v1/widget/${mid}/${siteId}/signals`);
      otherTab.on('request', (r) => {
        if (isSignals(r.url())) posts.sent += 1;
      });
      const answered = (r: Request) => {
        if (isSignals(r.url())) posts.answered += 1;
      };
      otherTab.on('requestfinished', answered);
      otherTab.on('requestfailed', answered);
      await otherTab.clock.install();
      const stale = await checkout(otherTab);
      // Stop the tab's clock, so no flush interval fires again; the tab stays open (closing it would
      // send a last beacon on pagehide). Then wait until every post it made has been answered: the
      // session cannot be refreshed behind the test's back once it is made 31 minutes old.
      await stale.page.clock.pauseAt(Date.now() + WIDGET_LIMITS.flushIntervalMs);
      await networkBarrier(stale.page, shop.origin);
      await eventually(
        () => ({ ...posts }),
        (p) => p.sent > 0 && p.answered === p.sent,
        { describe: 'every signals post of the stale tab to be answered' },
      );
      await stack
        .db('sense_sessions')
        .where({ sense_key: stale.senseKey })
        .update({ last_seen_at: stack.db.raw("now() - interval '31 minutes'") });
      const unused = await evaluate(stale.senseKey, stale.externalOrderId);
      expect(unused.deviceSignalsUsed).toBe(false);
      expect(unused.reasons).toContain('no_device_signals:0');
      expect(used.score - unused.score).toBe(10);
    } finally {
      await otherTab.close();
    }
  });
});
