import { readFileSync } from 'node:fs';
import net from 'node:net';
import { clusterPorts } from './temporal-cluster';

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

/** Whether a port on 127.0.0.1 could be listened on a moment ago. */
function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A base port such that base + each offset was free a moment ago, chosen at random below the
 * ephemeral range. A port the OS picks (listen(0)) lies inside that range, where, while its
 * server is down (a restart, a killed process), any outgoing connection may take it as its source
 * port or any `listen(0)` may be handed it: the restarted server then meets EADDRINUSE, or a proxy
 * in front of it reaches a stranger (npm-start.test.ts met both).
 */
export async function freePortBase(offsets: readonly number[] = [0]): Promise<number> {
  const high = ephemeralLow() - 1 - Math.max(0, ...offsets);
  const low = Math.min(10_000, high - 1_000);
  for (let tries = 0; tries < 50; tries++) {
    const base = low + Math.floor(Math.random() * (high - low + 1));
    let ok = true;
    for (const offset of offsets) if (ok && !(await isFree(base + offset))) ok = false;
    if (ok) return base;
  }
  throw new Error(`no free port found between ${low} and ${high} in 50 tries`);
}

/** A TCP port on 127.0.0.1 that was free a moment ago, for a server started later (freePortBase). */
export function freePort(): Promise<number> {
  return freePortBase();
}

/** A frontend port whose whole one-process cluster (clusterPorts) was free a moment ago. */
export function freeFrontendPort(): Promise<number> {
  const { membership, ...grpc } = clusterPorts(0);
  return freePortBase([...Object.values(grpc), ...Object.values(membership)]);
}
