import { readFileSync } from 'node:fs';
import net from 'node:net';

/**
 * The lowest port the kernel hands out as an ephemeral one (an outgoing connection's source port,
 * or `listen(0)`): Linux's ip_local_port_range, 32768 by default.
 */
function ephemeralLow(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    return Number(low) || 32_768;
  } catch {
    return 32_768;
  }
}

/** Whether `port` can be listened on at 127.0.0.1 right now. */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A TCP port that was free a moment ago on 127.0.0.1, for a server a test starts later. Chosen at
 * random below the ephemeral range: a port the OS picked (listen(0)) lies inside it, where any
 * outgoing connection of the busy test machine may take it as its source port before the server
 * binds it (npm-start.test.ts once met EADDRINUSE so, holding its API port across three starts).
 */
export async function freePort(): Promise<number> {
  const high = ephemeralLow() - 1;
  const low = Math.min(10_000, high - 1_000);
  for (let tries = 0; tries < 50; tries++) {
    const port = low + Math.floor(Math.random() * (high - low + 1));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port found between ${low} and ${high} in 50 tries`);
}
