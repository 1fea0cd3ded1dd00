import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { localTlsFiles } from '../tools/local-tls';

export interface Received {
  headers: Record<string, string>;
  body: string;
  at: number;
}

/**
 * A merchant's webhook receiver: a real HTTPS server on 127.0.0.1 with the run's self-signed
 * certificate. It answers `status` (changeable), after `delayMs` (changeable), and keeps what it received.
 */
export async function startReceiver(initialStatus = 200) {
  let status = initialStatus;
  let delayMs = 0;
  const received: Received[] = [];
  const server = https.createServer(
    { cert: readFileSync(localTlsFiles().cert), key: readFileSync(localTlsFiles().key) },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({
          headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        });
        const answered = status;
        setTimeout(() => res.writeHead(answered).end(), delayMs);
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}/hooks`,
    host: `127.0.0.1:${port}`,
    received,
    setStatus: (s: number) => {
      status = s;
    },
    /** Answers this long after a request arrived (it is recorded as received at once). */
    setDelay: (ms: number) => {
      delayMs = ms;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
