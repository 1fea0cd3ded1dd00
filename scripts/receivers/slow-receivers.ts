import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { localTlsFiles } from '../tools/local-tls';

/**
 * A merchant's webhook receiver that never answers: it accepts each POST and holds it open. It
 * counts what is in flight per path (one path per endpoint) and the most ever in flight, per
 * path and in total. `stop` drops every held connection.
 */
export async function startHangingReceiver() {
  const open = new Map<string, number>();
  const peak = new Map<string, number>();
  let total = 0;
  let peakTotal = 0;
  let received = 0;
  const server = https.createServer(
    { cert: readFileSync(localTlsFiles().cert), key: readFileSync(localTlsFiles().key) },
    (req, res) => {
      const path = req.url ?? '/';
      received += 1;
      open.set(path, (open.get(path) ?? 0) + 1);
      peak.set(path, Math.max(peak.get(path) ?? 0, open.get(path) ?? 0));
      total += 1;
      peakTotal = Math.max(peakTotal, total);
      req.resume();
      res.on('close', () => {
        open.set(path, (open.get(path) ?? 1) - 1);
        total -= 1;
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    urlFor: (name: string) => `https://127.0.0.1:${port}/${name}`,
    inFlight: () => total,
    stats: () => ({ received, inFlight: total, peakTotal, peakPerPath: Math.max(0, ...peak.values()) }),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A receiver that answers `status` at once, then streams a body without end (until the client
 * goes away), counting the bytes it managed to send.
 */
export async function startStreamingReceiver(status = 200) {
  let sent = 0;
  let closed = 0;
  const chunk = Buffer.alloc(64 * 1024, 'x');
  const server = https.createServer(
    { cert: readFileSync(localTlsFiles().cert), key: readFileSync(localTlsFiles().key) },
    (req, res) => {
      req.resume();
      res.writeHead(status, { 'content-type': 'text/plain' });
      let gone = false;
      res.on('close', () => {
        gone = true;
        closed += 1;
      });
      const pump = () => {
        while (!gone && sent < 2 ** 31) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
      };
      pump();
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}/hooks`,
    bytesSent: () => sent,
    closedConnections: () => closed,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A receiver that answers `status` after `delayMs`, keeping what it received (IdempotencyKey and
 * arrival time): attempts are in flight long enough to kill a worker in the middle of a batch.
 */
export async function startDelayedReceiver(delayMs: number, status = 200) {
  const received: Array<{ key: string; at: number }> = [];
  const server = https.createServer(
    { cert: readFileSync(localTlsFiles().cert), key: readFileSync(localTlsFiles().key) },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { IdempotencyKey: string };
        received.push({ key: body.IdempotencyKey, at: Date.now() });
        setTimeout(() => res.writeHead(status).end(), delayMs);
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    urlFor: (name: string) => `https://127.0.0.1:${port}/${name}`,
    received,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
