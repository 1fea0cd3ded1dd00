import type { Browser } from 'playwright-core';
import { launchChromium } from '../helpers/chromium';
import { startTestStack, type TestStack } from '../helpers/stack';

/**
 * The API reference page (GET /docs) in a real headless Chromium: Scalar, served by the API from
 * node_modules, renders the OpenAPI document of GET /v1/openapi.json. Nothing leaves localhost:
 * every request to another host is refused and recorded, and there must be none.
 */
describe('the API reference page in Chromium', () => {
  let stack: TestStack;
  let browser: Browser;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startTestStack(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('renders the operations from the local document, with no request leaving localhost', async () => {
    const context = await browser.newContext();
    const outside: string[] = [];
    await context.route('**/*', async (route) => {
      const { hostname, protocol } = new URL(route.request().url());
      if (protocol === 'data:' || protocol === 'blob:' || hostname === '127.0.0.1' || hostname === 'localhost') {
        await route.continue();
      } else {
        outside.push(route.request().url());
        await route.abort('blockedbyclient');
      }
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    try {
      const res = await page.goto(`${stack.baseUrl}/docs`);
      expect(res?.status()).toBe(200);
      await page.getByText('Evaluate a declined transaction').first().waitFor({ timeout: 30_000 });
      // The examples render after the operations' titles (a loaded machine showed the gap).
      await page.waitForFunction(() => document.body.textContent?.includes('shop-1001'), undefined, {
        timeout: 30_000,
      });
      const text = (await page.locator('body').textContent()) ?? '';
      for (const expected of [
        'Payment Rescue Service',
        'Refund a completed order, fully or partly',
        'Look up an order',
      ]) {
        expect(text).toContain(expected);
      }
      // The OAuth2 client-credentials scheme is offered, and the examples are realistic, not skeletons.
      expect(text).not.toContain('No authentication selected');
      expect(text).toContain('shop-1001');
      expect(outside).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("an error's doc_url opens its row on the API's error page", async () => {
    const refused = await fetch(`${stack.baseUrl}/v1/orders/${crypto.randomUUID()}`);
    const { error } = (await refused.json()) as { error: { id: string; name: string; doc_url: string } };
    expect([refused.status, error.doc_url]).toEqual([401, `/docs/errors#${error.id}`]);
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const res = await page.goto(new URL(error.doc_url, stack.baseUrl).toString());
      expect(res?.status()).toBe(200);
      // The row the link names is the page's target, and says which error it is.
      const row = page.locator('tr:target');
      expect(await row.getAttribute('id')).toBe(error.id);
      expect(await row.textContent()).toContain(error.name);
      expect(await page.locator('tbody tr').count()).toBeGreaterThan(50);
    } finally {
      await context.close();
    }
  });

  it('serves the document without authentication', async () => {
    const res = await fetch(`${stack.baseUrl}/v1/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    const document = (await res.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toMatch(/^3\.1\./);
    expect(document.paths['/v1/evaluate']).toBeDefined();
  });
});
