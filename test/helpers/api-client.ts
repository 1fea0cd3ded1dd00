export interface ApiAnswer {
  status: number;
  headers: Headers;
  /** The raw body, for byte-for-byte comparisons (idempotent replays). */
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the endpoint answered
  body: any;
}

/** One call to the service's API with a bearer token: JSON in, JSON (and its raw text) out. */
export async function callApi(
  baseUrl: string,
  token: string | undefined,
  method: string,
  path: string,
  body?: unknown,
): Promise<ApiAnswer> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
}
