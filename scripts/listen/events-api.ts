import type { WebhookEnvelope } from '../../src/domain/webhooks/envelope';
import { apiSession } from './api-session';

/** One event as GET /v1/events lists it (the envelope's fields, less IdempotencyKey and IsResent). */
export type ListedEvent = Omit<WebhookEnvelope, 'IdempotencyKey' | 'IsResent'> & {
  EventId: string;
  /** A test event (POST /v1/webhooks/{id}/test), listed because listen asks for them. */
  IsTestEvent?: boolean;
};

interface EventsPage {
  data: ListedEvent[];
  hasMore: boolean;
  nextCursor: string | null;
}

/**
 * The merchant's side of the events API: the cursor that follows GET /v1/events, test events
 * included (`include_test_events=true`), so listen shows them as a registered endpoint gets them.
 */
export function eventsApi(options: { apiBaseUrl: string; clientId: string; clientSecret: string }) {
  const session = apiSession(options);

  return {
    /** Checks the credentials (and the webhooks scope) before anything is printed as ready. */
    async check(): Promise<void> {
      const res = await session.call('GET', '/v1/events?limit=1&since=2999-01-01T00:00:00Z');
      if (res.status !== 200)
        throw new Error(`GET /v1/events answered HTTP ${res.status}: ${JSON.stringify(res.body)}`);
    },

    /**
     * The events after `position` (an ISO instant before the first event, a nextCursor after),
     * oldest first, and the position to ask from next time.
     */
    async page(position: string, limit = 100): Promise<{ events: ListedEvent[]; position: string; hasMore: boolean }> {
      const param = position.startsWith('evc_') ? 'starting_after' : 'since';
      const res = await session.call(
        'GET',
        `/v1/events?limit=${limit}&include_test_events=true&${param}=${encodeURIComponent(position)}`,
      );
      if (res.status !== 200)
        throw new Error(`GET /v1/events answered HTTP ${res.status}: ${JSON.stringify(res.body)}`);
      const body = res.body as EventsPage;
      return { events: body.data, position: body.nextCursor ?? position, hasMore: body.hasMore };
    },
  };
}
