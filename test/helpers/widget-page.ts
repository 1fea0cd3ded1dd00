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

/** Polls until `ok` holds (or the time is up, returning the last value for the assertion to show). */
export async function eventually<T>(probe: () => Promise<T>, ok: (value: T) => boolean, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
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
