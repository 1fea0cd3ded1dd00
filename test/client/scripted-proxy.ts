import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the proxy does with the next request that matches: answer it itself, or forward and lose the answer. */
export type Script =
  | { kind: 'answer'; status: number; headers?: Record<string, string>; body?: unknown }
  | { kind: 'lose-answer'; status: number };

export interface Seen {
  method: string;
  path: string;
  body: string;
  /** performance.now() when the request arrived and when the proxy answered it. */
  receivedAt: number;
  answeredAt: number;
  /** The status the caller got, and whether the API saw the request. */
  status: number;
  forwarded: boolean;
}

/** Paths under this prefix control the proxy instead of reaching the API. */
const CONTROL = '/__proxy';

/**
 * A real HTTP proxy in front of the API, as a load balancer or gateway would be: it forwards every
 * request unless a script waits for it. `answer` replies without reaching the API (a 503 with
 * Retry-After, a 500); `lose-answer` forwards, lets the API finish, then gives the caller a 502
 * instead of the API's answer (the answer lost on the way back).
 */
export async function startScriptedProxy(target: string) {
  const scripts: Array<{ method: string; path: string; script: Script }> = [];
  const seen: Seen[] = [];
  const server = http.createServer(async (req, res) => {
    const receivedAt = performance.now();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const path = req.url ?? '/';
    if (path.startsWith(CONTROL)) {
      control(req.method ?? '', new URL(path, 'http://proxy'), body, res);
      return;
    }
    const at = scripts.findIndex((s) => s.method === req.method && s.path === path);
    const script = at >= 0 ? scripts.splice(at, 1)[0]?.script : undefined;
    const record = (status: number, forwarded: boolean) =>
      seen.push({ method: req.method ?? '', path, body, receivedAt, answeredAt: performance.now(), status, forwarded });

    if (script?.kind === 'answer') {
      res.writeHead(script.status, { 'content-type': 'application/json', ...script.headers });
      res.end(script.body === undefined ? '' : JSON.stringify(script.body));
      record(script.status, false);
      return;
    }
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) {
      if (typeof v === 'string' && !['host', 'connection', 'content-length'].includes(k)) headers.set(k, v);
    }
    const upstream = await fetch(`${target}${path}`, {
      method: req.method,
      headers,
      body: body === '' ? undefined : body,
    });
    const text = await upstream.text();
    if (script?.kind === 'lose-answer') {
      res.writeHead(script.status, { 'content-type': 'text/html' });
      res.end('<html><body>502 Bad Gateway</body></html>');
      record(script.status, true);
      return;
    }
    const out: Record<string, string> = {};
    upstream.headers.forEach((v, k) => {
      if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(k)) out[k] = v;
    });
    res.writeHead(upstream.status, out);
    res.end(text);
    record(upstream.status, true);
  });
  /**
   * The same controls over HTTP, for a client in another process (the Python client's tests):
   * `POST /__proxy/scripts` `{ method, path, script }` queues a script; `GET /__proxy/seen?method=&path=`
   * answers those requests as `requests` does. Never forwarded, never recorded.
   */
  const control = (method: string, url: URL, body: string, res: http.ServerResponse) => {
    const reply = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    if (method === 'POST' && url.pathname === `${CONTROL}/scripts`) {
      const queued = JSON.parse(body) as { method: string; path: string; script: Script };
      scripts.push(queued);
      reply(201, queued);
    } else if (method === 'GET' && url.pathname === `${CONTROL}/seen`) {
      reply(200, requests(url.searchParams.get('method') ?? '', url.searchParams.get('path') ?? ''));
    } else reply(404, { error: 'unknown proxy control' });
  };
  const requests = (method: string, path: string) =>
    seen.filter((s) => s.method === method && s.path === path).sort((a, b) => a.receivedAt - b.receivedAt);

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    /** The next `method` `path` request gets `script` (scripts for one path run in order). */
    script(method: string, path: string, script: Script) {
      scripts.push({ method, path, script });
    },
    /** The requests for `method` `path`, in order of arrival. */
    requests,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
