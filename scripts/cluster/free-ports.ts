import net from 'node:net';
import { clusterPorts } from './temporal-cluster';

/** Whether a port on 127.0.0.1 could be listened on a moment ago. */
function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A base port such that base + each offset was free a moment ago (the Temporal server derives
 * its ports from one: clusterPorts). Below Linux's ephemeral range (32768+), where outgoing
 * connections could take a port meanwhile.
 */
export async function freePortBase(offsets: readonly number[]): Promise<number> {
  for (;;) {
    const base = 10_000 + Math.floor(Math.random() * 20_000);
    let ok = true;
    for (const offset of offsets) if (!(await isFree(base + offset))) ok = false;
    if (ok) return base;
  }
}

/** A frontend port whose whole one-process cluster (clusterPorts) was free a moment ago. */
export function freeFrontendPort(): Promise<number> {
  const { membership, ...grpc } = clusterPorts(0);
  return freePortBase([...Object.values(grpc), ...Object.values(membership)]);
}
