import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import ipaddr from 'ipaddr.js';
import { counter } from '../observability/metrics';

/** Connections closed on arrival, by the cap that refused them (docs/deployment.md#connections). */
export const connectionsRefused = counter(
  'http_connections_refused_total',
  'Connections the API closed on arrival: cap per_address (HTTP_MAX_CONNECTIONS_PER_ADDRESS) or total (HTTP_MAX_CONNECTIONS).',
  ['cap'],
);

/**
 * What a connection counts against: its IPv4 address (IPv4-mapped IPv6 unwrapped, as a dual-stack
 * listener reports them), or its IPv6 address's /64. A host is handed a whole /64, so counting
 * single IPv6 addresses would let one client open its share from each of them.
 */
export function connectionKey(address: string | undefined): string {
  if (!address || !ipaddr.isValid(address)) return address ?? 'unknown';
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const prefix = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${prefix.map((p) => p.toString(16)).join(':')}::/64`;
}

/**
 * At most `max` open connections per client address (connectionKey), so one client's stalled or
 * idle sockets cannot take the server's whole `maxConnections` budget, which stays the last
 * resort. A connection over the cap is closed at once, as Node closes one over the total; both
 * refusals are counted. Behind a proxy every connection comes from the proxy's address: see
 * docs/deployment.md#connections.
 */
export function limitConnectionsPerAddress(server: Server, max: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const key = connectionKey(socket.remoteAddress);
    const count = open.get(key) ?? 0;
    if (count >= max) {
      connectionsRefused.inc({ cap: 'per_address' });
      socket.destroy();
      return;
    }
    open.set(key, count + 1);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    });
  });
  // Node's own refusal once `server.maxConnections` are open.
  server.on('drop', () => connectionsRefused.inc({ cap: 'total' }));
}
