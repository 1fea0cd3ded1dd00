import { eventsApi } from './events-api';
import { forwardEvent } from './forward';
import type { ListenOptions } from './options';

/** `2026-11-22 10:00:01` (UTC): the time column of listen's lines. */
export function timeColumn(at: Date): string {
  return at.toISOString().replace('T', ' ').slice(0, 19);
}

/**
 * Follows the merchant's events through GET /v1/events and forwards each, in order, one line per
 * event: `<time>  <event>  <EventId> -> <status>` (`<EventId> [test]` for a test event). Polls every `intervalMs` when idle, at once
 * while pages are full. Stops when `signal` aborts. API errors are printed and retried.
 */
export async function follow(options: ListenOptions, out: (line: string) => void, signal: AbortSignal): Promise<void> {
  const api = eventsApi(options);
  let position = options.since;
  while (!signal.aborted) {
    let hasMore = false;
    try {
      const page = await api.page(position);
      for (const event of page.events) {
        if (signal.aborted) return;
        if (options.events.length && !options.events.includes(event.Event)) continue;
        const answer = await forwardEvent(options.forwardTo, options.secret, event, 10_000, options.tls);
        const shown = 'status' in answer ? String(answer.status) : `error: ${answer.error}`;
        const test = event.IsTestEvent ? ' [test]' : '';
        out(`${timeColumn(new Date())}  ${event.Event}  ${event.EventId}${test} -> ${shown}`);
      }
      position = page.position;
      hasMore = page.hasMore;
    } catch (err) {
      out(`${timeColumn(new Date())}  (events API: ${(err as Error).message}; retrying)`);
    }
    if (!hasMore) await pause(options.intervalMs, signal);
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
