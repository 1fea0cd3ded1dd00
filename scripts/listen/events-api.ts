import type { WebhookEnvelope } from '../../src/domain/webhooks/envelope';
/** One event as GET /v1/events lists it (the envelope's fields, less IdempotencyKey and IsResent). */
export type ListedEvent = Omit<WebhookEnvelope, 'IdempotencyKey' | 'IsResent'> & { EventId: string };

interface EventsPage {
  data: ListedEvent[];
  hasMore: boolean;
  nextCursor: string | null;
}

/**
 * The merchant's side of the events API: a client-credentials token (fetched again once on a 401,
 * as the interface says) and the cursor that follows GET /v1/events. Outbound requests only.
 */
export function eventsApi(options: { apiBaseUrl: string; clientId: string; clientSecret: string }) {
  let token: string | undefined;

  async function fetchToken(): Promise<string> {
    const res = await fetch(`${options.apiBaseUrl}/v1/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'client_credentials',
        client_id: options.clientId,
        client_secret: options.clientSecret,
      }),
    });
    if (res.status !== 200) throw new Error(`token request failed: HTTP ${res.status} ${await res.text()}`);
    return ((await res.json()) as { access_token: string }).access_token;
  }

  async function get(path: string): Promise<Response> {
    token ??= await fetchToken();
    let res = await fetch(`${options.apiBaseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
    if (res.status === 401) {
      token = await fetchToken();
      res = await fetch(`${options.apiBaseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
    }
    return res;
  }

  return {
    /** Checks the credentials (and the webhooks scope) before anything is printed as ready. */
    async check(): Promise<void> {
      const res = await get('/v1/events?limit=1&since=2999-01-01T00:00:00Z');
      if (res.status !== 200) throw new Error(`GET /v1/events answered HTTP ${res.status}: ${await res.text()}`);
    },

    /**
     * The events after `position` (an ISO instant before the first event, a nextCursor after),
     * oldest first, and the position to ask from next time.
     */
    async page(position: string, limit = 100): Promise<{ events: ListedEvent[]; position: string; hasMore: boolean }> {
      const param = position.startsWith('evc_') ? 'starting_after' : 'since';
      const res = await get(`/v1/events?limit=${limit}&${param}=${encodeURIComponent(position)}`);
      if (res.status !== 200) throw new Error(`GET /v1/events answered HTTP ${res.status}: ${await res.text()}`);
      const body = (await res.json()) as EventsPage;
      return { events: body.data, position: body.nextCursor ?? position, hasMore: body.hasMore };
    },
  };
}
