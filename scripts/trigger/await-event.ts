import type { apiSession } from '../listen/api-session';
import type { ListedEvent } from '../listen/events-api';
import type { Triggered } from './scenarios';

/**
 * Waits until the owner's feed (GET /v1/events) lists `event` for the triggered order or
 * application: that is when it is recorded (and fanned out to endpoints, and seen by listen).
 * Pages from `since` (a little before the trigger began) with the cursor; polls every `intervalMs`.
 * Answers the listed event, or undefined when `deadline` (epoch ms) passes first.
 */
export async function awaitEvent(
  session: ReturnType<typeof apiSession>,
  event: string,
  triggered: Triggered,
  since: Date,
  deadline: number,
  intervalMs = 250,
): Promise<ListedEvent | undefined> {
  let position = since.toISOString();
  const matches = (e: ListedEvent) =>
    e.Event === event &&
    (triggered.orderId === undefined || e.OrderId === triggered.orderId) &&
    (triggered.applicationId === undefined ||
      (e.EventData as { ApplicationId?: string } | null)?.ApplicationId === triggered.applicationId);
  for (;;) {
    const param = position.startsWith('evc_') ? 'starting_after' : 'since';
    const answer = await session.call('GET', `/v1/events?limit=500&${param}=${encodeURIComponent(position)}`);
    if (answer.status !== 200) {
      throw new Error(`GET /v1/events answered HTTP ${answer.status}: ${JSON.stringify(answer.body)}`);
    }
    const found = (answer.body.data as ListedEvent[]).find(matches);
    if (found) return found;
    position = answer.body.nextCursor ?? position;
    if (answer.body.hasMore) continue;
    if (Date.now() >= deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, Math.min(intervalMs, Math.max(0, deadline - Date.now()))));
  }
}
