import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import type { Db } from '../../src/db/knex';

/**
 * A merchant page with the documented snippet: the async script from `{widget_url}`, the queue
 * stub, then `fc('init', ...)` (queued: the script has not run yet). `calls` replaces the init
 * line when a test needs other queued calls.
 */
export function snippetPage(options: {
  widgetUrl: string;
  mid: string;
  siteId: string;
  calls?: string;
  head?: string;
  body?: string;
}): string {
  const calls = options.calls ?? `fc('init', '${options.mid}', '${options.siteId}');`;
  return `<!doctype html>
<html>
<head>
<meta charset="utf-8">
<title>Shop</title>
<script async src="${options.widgetUrl}"></script>
<script>window.fc=window.fc||function(){(fc.q=fc.q||[]).push(arguments)};</script>
<script>${calls}</script>
${options.head ?? ''}
</head>
<body>
${options.body ?? '<h1>Checkout</h1>'}
</body>
</html>`;
}

/**
 * A barrier on the page's network: the page requests a unique URL on `origin` and this resolves
 * once Playwright reports that request. Requests the page started before it (a config fetch, a
 * beacon) have been reported to `page.on('request')` listeners by then, so a test can assert
 * that something was never requested without sleeping.
 */
export async function networkBarrier(page: Page, origin: string): Promise<void> {
  const url = `${origin}/barrier-${randomUUID()}`;
  await Promise.all([
    page.waitForRequest(url),
    page.evaluate(
      (u) =>
        fetch(u, { cache: 'no-store' }).then(
          () => undefined,
          () => undefined,
        ),
      url,
    ),
  ]);
}

export interface StoredSignal {
  kind: string;
  data: Record<string, unknown>;
}

/** The signals stored under a senseKey, in arrival order. */
export async function storedSignals(db: Db, senseKey: string): Promise<StoredSignal[]> {
  return db('sense_signals').where({ sense_key: senseKey }).orderBy('id').select('kind', 'data');
}

export async function storedSession(db: Db, senseKey: string) {
  return db('sense_sessions').where({ sense_key: senseKey }).first();
}
