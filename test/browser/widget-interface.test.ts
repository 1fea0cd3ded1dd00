import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { WIDGET_LIMITS } from '../../src/domain/widget-signals';
import { launchChromium } from '../helpers/chromium';
import { eventually } from '../helpers/eventually';
import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { type MerchantSite, startMerchantSite } from '../helpers/merchant-site';
import { startTestStack, type TestStack } from '../helpers/stack';
import { networkBarrier, snippetPage } from '../helpers/widget-page';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type FcWindow = Window & { fc: Record<string, unknown> & ((...args: unknown[]) => unknown) };

/**
 * The widget's interface (spec: "Browser widget interface", "Browser session storage") in a real
 * headless Chromium: a merchant page served over HTTPS on 127.0.0.1 loads the script from the
 * service and calls it exactly as the documented snippet does.
 */
describe('the fc widget interface in Chromium', () => {
  let stack: TestStack;
  let browser: Browser;
  let shop: MerchantSite;
  let mid: string;
  let siteId: string;
  let context: BrowserContext;

  beforeAll(async () => {
    [stack, browser, shop] = await Promise.all([startTestStack(), launchChromium(), startMerchantSite()]);
    const merchant = await seedMerchant(stack.db);
    mid = merchant.mid;
    const token = await accessToken(stack.baseUrl, await seedKey(stack.db, merchant));
    const res = await fetch(`${stack.baseUrl}/v1/merchants/${mid}/sites`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Shop', allowedOrigins: [shop.origin] }),
    });
    siteId = ((await res.json()) as { siteId: string }).siteId;
  });
  afterAll(async () => {
    await browser?.close();
    await shop?.close();
    await stack?.stop();
  });
  beforeEach(async () => {
    context = await browser.newContext({ ignoreHTTPSErrors: true });
  });
  afterEach(async () => {
    await context.close();
  });

  const widgetUrl = () => `${stack.baseUrl}/widget/fc.js`;

  /** Serves a page with the snippet at a fresh path and opens it; resolves once the script ran. */
  async function open(options: { calls?: string; body?: string; query?: string; page?: Page } = {}) {
    const path = `/p-${randomUUID()}`;
    shop.page(path, snippetPage({ widgetUrl: widgetUrl(), mid, siteId, ...options }));
    const page = options.page ?? (await context.newPage());
    await page.goto(`${shop.origin}${path}${options.query ?? ''}`);
    await page.waitForFunction(() => (window as unknown as { fc?: { getSenseKey?: unknown } }).fc?.getSenseKey);
    return page;
  }

  const fc = <T>(page: Page, body: string): Promise<T> =>
    page.evaluate(`(() => { const fc = window.fc; return ${body}; })()`) as Promise<T>;
  const storage = (page: Page) =>
    page.evaluate(() => ({ sk: sessionStorage.getItem('fc_sk'), eoi: sessionStorage.getItem('fc_eoi') }));

  it('replays the calls queued before the script loaded, in order', async () => {
    const page = await open({
      calls: [
        `fc('init', '${mid}', '${siteId}');`,
        "fc('setOrderId', { externalOrderId: 'queued-1' });",
        "fc('setOrderId', { externalOrderId: 'queued-2' });",
        'window.queuedBeforeLoad = fc.q.length;',
      ].join('\n'),
    });
    expect(await page.evaluate(() => (window as unknown as { queuedBeforeLoad: number }).queuedBeforeLoad)).toBe(3);
    expect(await fc(page, '[fc.isStarted, fc.mid, fc.siteId, fc.externalOrderId]')).toEqual([
      true,
      mid,
      siteId,
      'queued-2',
    ]);
    expect((await storage(page)).eoi).toBe('queued-2');
  });

  it('initializes once per page: a later init is silently ignored and fetches nothing', async () => {
    const configRequests: string[] = [];
    const page = await context.newPage();
    page.on('request', (request) => {
      if (request.url().includes('/config')) configRequests.push(request.url());
    });
    await open({ page });
    await page.waitForFunction(() => (window as unknown as FcWindow).fc.isStarted === true);
    const other = randomUUID();
    expect(await fc(page, `fc('init', '${other}', '${other}')`)).toBeUndefined();
    await networkBarrier(page, shop.origin); // a config fetch from that init would be reported by now
    expect(await fc(page, '[fc.mid, fc.siteId, fc.isStarted]')).toEqual([mid, siteId, true]);
    expect(configRequests).toEqual([`${stack.baseUrl}/v1/widget/${mid}/${siteId}/config`]);
  });

  it('aborts initialization without a MID: not started, no network call, setOrderId does nothing', async () => {
    await context.clock.install(); // the page's timers run when the test says
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    await open({ page, calls: `fc('init', '', '${siteId}'); fc('init');` });
    await eventually(
      () => warnings,
      (w) => w.some((text) => text.includes('MID')),
      { describe: 'the console warning that init needs the MID' },
    );
    // Past a flush interval (and then some): a started widget would have sent a batch by now.
    await page.clock.runFor(WIDGET_LIMITS.flushIntervalMs * 2);
    await networkBarrier(page, shop.origin);
    expect(await fc(page, '[fc.isStarted, fc.mid, fc.setOrderId({ externalOrderId: "x" })]')).toEqual([
      false,
      null,
      undefined,
    ]);
    const key = await fc<string>(page, 'fc.getSenseKey()');
    expect(key).toMatch(UUID);
    const toService = requests.filter((url) => url.startsWith(stack.baseUrl));
    expect(toService).toEqual([widgetUrl()]); // the script itself, nothing else
    expect(await stack.db('sense_sessions').where({ sense_key: key })).toEqual([]);
  });

  it('setOrderId binds the order, rotates the senseKey when the order changes and returns the current key', async () => {
    const page = await open();
    const first = await fc<string>(page, 'fc.getSenseKey()');
    expect(first).toMatch(UUID);
    // The first binding keeps the key: what it collected so far belongs to this order.
    expect(await fc(page, "fc.setOrderId({ externalOrderId: 'order-1' })")).toBe(first);
    expect(await fc(page, "fc.setOrderId({ externalOrderId: 'order-1' })")).toBe(first);
    const second = await fc<string>(page, "fc.setOrderId({ externalOrderId: 'order-2' })");
    expect(second).toMatch(UUID);
    expect(second).not.toBe(first);
    expect(await fc(page, '[fc.getSenseKey(), fc.senseKey, fc.externalOrderId]')).toEqual([second, second, 'order-2']);
    expect(await storage(page)).toEqual({ sk: second, eoi: 'order-2' });
    // Neither id: nothing changes, undefined comes back.
    expect(await fc(page, 'fc.setOrderId({}) === undefined && fc.setOrderId() === undefined')).toBe(true);
    expect(await fc(page, 'fc.senseKey')).toBe(second);
  });

  it('takes externalOrderId over orderId when both are given, and orderId alone', async () => {
    const page = await open();
    await fc(page, "fc.setOrderId({ orderId: 'internal-7', externalOrderId: 'external-7' })");
    expect(await fc(page, 'fc.externalOrderId')).toBe('external-7');
    expect((await storage(page)).eoi).toBe('external-7');
    await fc(page, "fc.setOrderId({ orderId: 'internal-8' })");
    expect((await storage(page)).eoi).toBe('internal-8');
    // Bound as evaluate matches it: trimmed (a backend forwarding ' external-9 ' finds this session).
    await fc(page, "fc.setOrderId({ externalOrderId: ' external-9 ' })");
    expect([await fc(page, 'fc.externalOrderId'), (await storage(page)).eoi]).toEqual(['external-9', 'external-9']);
  });

  it('getSenseKey works when sessionStorage throws (private modes): the in-memory key', async () => {
    await context.addInitScript(() => {
      Object.defineProperty(window, 'sessionStorage', {
        get() {
          throw new DOMException('The operation is insecure.', 'SecurityError');
        },
      });
    });
    const page = await open();
    expect(await page.evaluate(() => typeof window.sessionStorage).catch(() => 'throws')).toBe('throws');
    const key = await fc<string>(page, 'fc.getSenseKey()');
    expect(key).toMatch(UUID);
    expect(await fc(page, 'fc.getSenseKey()')).toBe(key);
    expect(await fc(page, "fc.setOrderId({ externalOrderId: 'm-1' })")).toBe(key);
    const rotated = await fc<string>(page, "fc.setOrderId({ externalOrderId: 'm-2' })");
    expect(rotated).not.toBe(key);
    expect(await fc(page, '[fc.getSenseKey(), fc.externalOrderId, fc.isStarted]')).toEqual([rotated, 'm-2', true]);
  });

  it('createOrderId makes a UUID, binds it with setOrderId and returns it', async () => {
    const page = await open();
    const keyBefore = await fc<string>(page, 'fc.getSenseKey()');
    const orderId = await fc<string>(page, 'fc.createOrderId()');
    expect(orderId).toMatch(UUID);
    expect(await fc(page, 'fc.externalOrderId')).toBe(orderId);
    expect(await storage(page)).toEqual({ sk: keyBefore, eoi: orderId });
    const next = await fc<string>(page, 'fc.createOrderId()');
    expect(next).not.toBe(orderId);
    expect((await storage(page)).sk).not.toBe(keyBefore); // a different order: a new key
  });

  it('a senseKey or fc_sk query parameter on page load overrides the stored key', async () => {
    const page = await open();
    const stored = await fc<string>(page, 'fc.getSenseKey()');
    await fc(page, "fc.setOrderId({ externalOrderId: 'before-stitch' })");
    const stitched = randomUUID();
    await open({ page, query: `?senseKey=${stitched}` });
    expect(await fc(page, 'fc.getSenseKey()')).toBe(stitched);
    expect(stitched).not.toBe(stored);
    // The order bound to the replaced key is not carried over to the stitched one.
    expect(await storage(page)).toEqual({ sk: stitched, eoi: null });
    const other = randomUUID();
    await open({ page, query: `?fc_sk=${other.toUpperCase()}` });
    expect(await fc(page, 'fc.senseKey')).toBe(other);
    await open({ page }); // no parameter: the stored key stays
    expect(await fc(page, 'fc.senseKey')).toBe(other);
    await open({ page, query: '?senseKey=not-a-uuid' }); // not a key: ignored
    expect(await fc(page, 'fc.senseKey')).toBe(other);
  });

  it('keeps the senseKey in fc_sk and the last bound order id in fc_eoi for the tab', async () => {
    const page = await open();
    const key = await fc<string>(page, "fc.setOrderId({ externalOrderId: 'tab-order' })");
    expect(await storage(page)).toEqual({ sk: key, eoi: 'tab-order' });
    await page.reload();
    await page.waitForFunction(() => (window as unknown as FcWindow).fc.isStarted === true);
    expect(await fc(page, '[fc.getSenseKey(), fc.externalOrderId]')).toEqual([key, 'tab-order']);
    // Another tab is another session.
    const otherTab = await open();
    expect(await fc(otherTab, 'fc.getSenseKey()')).not.toBe(key);
  });

  it('exposes read-only globals', async () => {
    const page = await open();
    await page.waitForFunction(() => (window as unknown as FcWindow).fc.isStarted === true);
    const result = await fc<unknown[]>(
      page,
      // Strict-mode code, as a module or a class body is: the assignments neither throw nor take.
      `(() => { 'use strict'; const before = fc.senseKey;
        try { fc.senseKey = 'x'; fc.mid = 'y'; fc.isStarted = false; fc.externalOrderId = 'z'; fc.siteId = 'w'; }
        catch (e) { return [String(e)]; }
        return [fc.senseKey === before, fc.mid, fc.isStarted, fc.externalOrderId]; })()`,
    );
    expect(result).toEqual([true, mid, true, null]);
  });
});
