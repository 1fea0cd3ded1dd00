/** The API's answer to one call: its status and parsed JSON body (undefined when empty or not JSON). */
export interface ApiAnswer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: answers of many shapes, read by the callers that know them
  body: any;
}

/**
 * A merchant's (or partner's) session with the API, as listen and trigger make one: a
 * client-credentials token, fetched again once on a 401 (as the interface says). Outbound only.
 */
export function apiSession(options: { apiBaseUrl: string; clientId: string; clientSecret: string }) {
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

  async function send(method: string, path: string, body?: unknown): Promise<Response> {
    token ??= await fetchToken();
    return fetch(`${options.apiBaseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  return {
    /** One call; a 401 fetches a new token and tries once more. */
    async call(method: string, path: string, body?: unknown): Promise<ApiAnswer> {
      let res = await send(method, path, body);
      if (res.status === 401) {
        token = await fetchToken();
        res = await send(method, path, body);
      }
      return { status: res.status, body: await jsonOf(res) };
    },
  };
}

/**
 * A POST outside the client session: the operators' back office (`bearer` = the admin token) or
 * the challenge reports (no bearer: the orderSessionKey in the path authorizes them).
 */
export async function postJson(apiBaseUrl: string, path: string, body: unknown, bearer?: string): Promise<ApiAnswer> {
  const res = await fetch(`${apiBaseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await jsonOf(res) };
}

async function jsonOf(res: Response): Promise<unknown> {
  const text = await res.text();
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return text;
  }
}
