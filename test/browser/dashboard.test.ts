import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { callApi } from '../helpers/api-client';
import { launchChromium } from '../helpers/chromium';
import { type DashboardMerchant, linkTokenOf, mintLink, seedDashboardMerchant } from '../helpers/dashboard';
import { startTestStack, type TestStack } from '../helpers/stack';

/** Screenshots of the pages the tests saw (git-ignored): test-output/dashboard/*.png. */
const SCREENSHOTS = path.resolve(__dirname, '../../test-output/dashboard');
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: Array<{ target: unknown }>;
}

/**
 * The merchant dashboard in a real headless Chromium (docs/dashboard.md): opened from a link the
 * merchant's bearer minted, it shows the figures of GET /v1/reports/rescues, finds an order by its
 * externalOrderId, shows the order's attempts and webhook deliveries, refuses a tampered or
 * expired link, shows one merchant nothing of another's, and has no serious accessibility fault.
 * Nothing leaves localhost, and the page's own policy (self only) blocks nothing it needs.
 */
describe('the merchant dashboard in Chromium', () => {
  let stack: TestStack;
  let browser: Browser;
  let a: DashboardMerchant;
  let b: DashboardMerchant;
  let context: BrowserContext;
  let problems: string[];

  /** The minted URL, on the test API's own address (PUBLIC_BASE_URL is not where it listens). */
  const pageUrl = (token: string) => `${stack.baseUrl}/dashboard#link=${token}`;
  const linkOf = async (merchant: DashboardMerchant, body: unknown = {}) =>
    linkTokenOf((await mintLink(stack.baseUrl, merchant.token, body)).body.url);

  async function open(token: string, waitFor: 'figures' | 'orders' | 'refused' = 'figures'): Promise<Page> {
    const page = await context.newPage();
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (msg) => msg.type() === 'error' && problems.push(`console: ${msg.text()}`));
    await page.goto(pageUrl(token));
    if (waitFor === 'refused') await page.locator('#refused').waitFor({ state: 'visible' });
    else await page.locator(`body[data-${waitFor}="shown"]`).waitFor({ timeout: 30_000 });
    return page;
  }
  const screenshot = (page: Page, name: string) =>
    page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });

  /** The report the page asked for, from the API with the merchant's own bearer. */
  async function reportFor(page: Page, merchant: DashboardMerchant) {
    const from = `${await page.locator('#from').inputValue()}T00:00:00.000Z`;
    const to = new Date(Date.parse(`${await page.locator('#to').inputValue()}T00:00:00Z`) + 86_400_000).toISOString();
    const query = new URLSearchParams({ from, to, groupBy: 'day' });
    const res = await callApi(stack.baseUrl, merchant.token, 'GET', `/v1/reports/rescues?${query}`);
    expect(res.status).toBe(200);
    return res.body;
  }
  async function shownFigures(page: Page): Promise<Record<string, unknown>> {
    const cells = await page
      .locator('[data-figure]')
      .evaluateAll((nodes) => nodes.map((n) => [n.getAttribute('data-figure'), n.getAttribute('data-value')]));
    return Object.fromEntries(cells.map(([key, value]) => [key, JSON.parse(value ?? 'undefined')]));
  }
  const orderLinks = (page: Page) => page.locator('#orders-table tbody a').allTextContents();

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startTestStack(), launchChromium(), mkdir(SCREENSHOTS, { recursive: true })]);
    [a, b] = await Promise.all([
      seedDashboardMerchant(stack.baseUrl, stack.db, 'shop-a'),
      seedDashboardMerchant(stack.baseUrl, stack.db, 'shop-b'),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });
  beforeEach(async () => {
    problems = [];
    context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    await context.route('**/*', async (route) => {
      const { hostname, protocol } = new URL(route.request().url());
      if (protocol === 'data:' || hostname === '127.0.0.1') return route.continue();
      problems.push(`left localhost: ${route.request().url()}`);
      return route.abort('blockedbyclient');
    });
  });
  afterEach(async () => {
    await context.close();
    expect(problems).toEqual([]);
  });

  it("renders the seeded figures, equal to the report API's, with their charts and tables", async () => {
    const page = await open(await linkOf(a));
    const report = await reportFor(page, a);
    expect(report.totals.evaluated).toBe(a.orders.length);
    expect(await shownFigures(page)).toEqual(report.totals);
    // The link left the address bar: a copied URL or a screenshot does not carry it.
    expect(new URL(page.url()).hash).toBe('');
    // Each chart drew, and its table carries the same groups.
    for (const id of ['recovered-chart', 'rate-chart']) {
      expect(await page.locator(`#${id}`).evaluate((c) => (c as HTMLCanvasElement).width)).toBeGreaterThan(0);
    }
    expect(await page.locator('#recovered-table tbody tr').count()).toBe(Math.max(report.groups.length, 1));
    const openRescues = await page.locator('#open-table tbody a').allTextContents();
    expect(openRescues.sort()).toEqual(
      report.openRescues.items.map((o: { externalOrderId: string }) => o.externalOrderId).sort(),
    );
    expect(await page.locator('#open-count').textContent()).toBe(`(${report.openRescues.count})`);
    await screenshot(page, 'overview');
  });

  it('finds an order by externalOrderId with the keyboard, and shows its attempts and webhook deliveries', async () => {
    const page = await open(await linkOf(a), 'orders');
    expect((await orderLinks(page)).sort()).toEqual(a.orders.map((o) => o.externalOrderId).sort());
    const wanted = a.orders[1] as DashboardMerchant['orders'][number];
    await page.getByLabel('Find by your order id (externalOrderId)').fill(wanted.externalOrderId);
    await page.keyboard.press('Enter');
    await page.locator('#orders-caption', { hasText: wanted.externalOrderId }).waitFor();
    expect(await orderLinks(page)).toEqual([wanted.externalOrderId]);
    await page.locator('#orders-table tbody a').focus();
    await page.keyboard.press('Enter');
    await page.locator('#order-heading', { hasText: wanted.externalOrderId }).waitFor();
    // Focus moves to the order, for keyboard and screen reader users.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('order-heading');
    const lookup = await callApi(stack.baseUrl, a.token, 'GET', `/v1/orders/${wanted.orderId}`);
    expect(await page.locator('#attempts li time').count()).toBe(lookup.body.attempts.length);
    expect(await page.locator('#deliveries-table caption').isVisible()).toBe(true);
    await screenshot(page, 'order');
    // An unknown id finds nothing.
    await page.getByLabel('Find by your order id (externalOrderId)').fill('no-such-order');
    await page.getByRole('button', { name: 'Find' }).click();
    await page.locator('#orders-table tbody', { hasText: 'No order has this externalOrderId.' }).waitFor();
  });

  it("shows amounts in the service's minor units, not the browser's: IQD with three decimals, HUF with two", async () => {
    const c = await seedDashboardMerchant(stack.baseUrl, stack.db, 'shop-c');
    const shown: Record<string, string> = {};
    for (const [currency, amount] of [
      ['IQD', 2500],
      ['HUF', 100_000],
    ] as const) {
      const externalOrderId = `shop-c-${currency}`;
      const res = await callApi(stack.baseUrl, c.token, 'POST', '/v1/evaluate', {
        idempotencyKey: crypto.randomUUID(),
        externalOrderId,
        transaction: { amount, currency, responseCode: '51' },
        paymentMethod: { cardNumber: '4111111111111111', expiryMonth: 12, expiryYear: new Date().getUTCFullYear() + 1 },
      });
      expect(res.status).toBe(200);
      shown[currency] = externalOrderId;
    }
    const page = await open(await linkOf(c), 'orders');
    const amountOf = async (externalOrderId: string) =>
      (await page.locator('#orders-table tbody tr', { hasText: externalOrderId }).locator('td').nth(4).textContent())
        // Intl separates the code from the figure with a no-break space.
        ?.replace(/\u00a0/g, ' ');
    // 2.500 dinars and 1,000.00 forints: the browser's data has no decimals for either.
    expect(await amountOf(shown.IQD as string)).toBe('IQD 2.500');
    expect(await amountOf(shown.HUF as string)).toBe('HUF 1,000.00');
  });

  it('has no serious or critical accessibility violation (axe-core)', async () => {
    const page = await open(await linkOf(a));
    await page.locator('body[data-orders="shown"]').waitFor();
    await page.locator('#orders-table tbody a').first().click();
    await page.locator('#order:not([hidden]) #attempts li').first().waitFor();
    await page.evaluate(AXE_SOURCE);
    const violations = (await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(): Promise<{ violations: unknown[] }> } }).axe;
      return (await axe.run()).violations;
    })) as AxeViolation[];
    const grave = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(grave.map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`)).toEqual([]);
  });

  it("shows merchant B none of merchant A's orders or figures", async () => {
    const page = await open(await linkOf(b));
    await page.locator('body[data-orders="shown"]').waitFor();
    expect(await shownFigures(page)).toEqual((await reportFor(page, b)).totals);
    expect((await orderLinks(page)).sort()).toEqual(b.orders.map((o) => o.externalOrderId).sort());
    await page.getByLabel('Find by your order id (externalOrderId)').fill(a.orders[0]?.externalOrderId ?? '');
    await page.keyboard.press('Enter');
    await page.locator('#orders-table tbody', { hasText: 'No order has this externalOrderId.' }).waitFor();
    // Back to the list (the caption no longer echoes the search): nothing of A's anywhere on the page.
    await page.getByRole('button', { name: 'Show all' }).click();
    await page.locator('#orders-caption', { hasText: 'The newest orders' }).waitFor();
    const text = (await page.locator('body').textContent()) ?? '';
    for (const order of a.orders) expect(text).not.toContain(order.externalOrderId);
    await screenshot(page, 'merchant-b');
  });

  it('refuses a tampered link (401005) and an expired one (401006)', async () => {
    const token = await linkOf(a);
    const [prefix, body, signature] = token.split('.') as [string, string, string];
    // Its first character, which carries six bits of the signature: the last one's low bits are
    // padding of base64url, so changing it alone could leave the signature's bytes as they were.
    const tampered = `${prefix}.${body}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    const refusedPage = await open(tampered, 'refused');
    expect(await refusedPage.locator('#refused').getAttribute('data-error-id')).toBe('401005');
    expect(await refusedPage.locator('#main').isHidden()).toBe(true);
    await screenshot(refusedPage, 'refused-tampered');

    const short = await linkOf(a, { expiresInSeconds: 60 });
    stack.clock.advance(61_000); // the API's clock: the link is now past its expiry
    const expiredPage = await open(short, 'refused');
    expect(await expiredPage.locator('#refused').getAttribute('data-error-id')).toBe('401006');
    // The browser logs the refused requests' 401s; they are what this test expects.
    problems = problems.filter((p) => !p.includes('401'));
  });
});
