import http from 'node:http';

export interface SourcedAnswer {
  status: number;
  /** Lower-case names, as Node reads them. */
  headers: http.IncomingHttpHeaders;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the endpoint answered
  body: any;
}

/**
 * One JSON request from a chosen loopback address (any of 127.0.0.0/8 reaches a server on
 * 127.0.0.1), so one test can act as several sources: per-IP limits key on the TCP peer address.
 */
export function requestFrom(
  source: string,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<SourcedAnswer> {
  const payload = init.body === undefined ? undefined : JSON.stringify(init.body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: init.method ?? (payload ? 'POST' : 'GET'),
        localAddress: source,
        agent: false,
        headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...init.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : undefined });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
