import net from 'node:net';

/**
 * Several API processes listen on loopback behind the round-robin proxy, where every client's
 * connection arrives from 127.0.0.1: a per-address cap there would be one cap for everyone, so it
 * is the total (docs/deployment.md#connections).
 */
export const BEHIND_LOCAL_PROXY = {
  HOST: '127.0.0.1',
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: process.env.HTTP_MAX_CONNECTIONS ?? '2000',
};

export interface Backend {
  host: string;
  port: number;
}

export interface RoundRobinProxy {
  port: number;
  /** Connections handed to each backend so far, by `host:port`. */
  connections: Map<string, number>;
  close(): Promise<void>;
}

/**
 * A round-robin TCP load balancer, as small as a local stand-in for an ingress can be: each new
 * connection goes to the next backend; a backend that refuses the connection (a killed process)
 * is skipped for 1 s and the connection tries the next one, so callers never see a dead backend
 * as long as one is up. Bytes are not inspected: a keep-alive connection stays on its backend, and
 * a request in flight on a process that dies gets its connection reset (the caller sees an error,
 * never a made-up answer, and retries with its idempotency key). So does a connection that lands
 * in the milliseconds a killed process takes to exit, while the kernel still completes handshakes
 * on its port: the skip starts once the port refuses.
 */
export async function startRoundRobinProxy(opts: {
  host: string;
  port: number;
  backends: Backend[];
}): Promise<RoundRobinProxy> {
  let next = 0;
  const downUntil = new Map<string, number>();
  const connections = new Map<string, number>();
  const sockets = new Set<net.Socket>();
  const key = (b: Backend) => `${b.host}:${b.port}`;

  const pick = (tried: Set<string>): Backend | undefined => {
    const now = Date.now();
    const candidates = opts.backends.filter((b) => !tried.has(key(b)));
    const up = candidates.filter((b) => (downUntil.get(key(b)) ?? 0) <= now);
    const pool = up.length ? up : candidates;
    if (!pool.length) return undefined;
    next = (next + 1) % opts.backends.length;
    return pool[next % pool.length];
  };

  const server = net.createServer((client) => {
    sockets.add(client);
    client.once('close', () => sockets.delete(client));
    client.pause();
    const tried = new Set<string>();
    const connect = () => {
      const backend = pick(tried);
      if (!backend) {
        client.destroy();
        return;
      }
      tried.add(key(backend));
      const upstream = net.connect(backend.port, backend.host);
      sockets.add(upstream);
      upstream.once('close', () => sockets.delete(upstream));
      const onConnectError = () => {
        downUntil.set(key(backend), Date.now() + 1_000);
        upstream.destroy();
        connect();
      };
      upstream.once('error', onConnectError);
      upstream.once('connect', () => {
        // A connect to a dead backend's port on this host can pick that very port as its source
        // and connect to itself (TCP simultaneous open): as refused as a refusal, so skip it.
        if (upstream.localPort === upstream.remotePort && upstream.localAddress === upstream.remoteAddress) {
          onConnectError();
          return;
        }
        upstream.off('error', onConnectError);
        connections.set(key(backend), (connections.get(key(backend)) ?? 0) + 1);
        upstream.setNoDelay(true);
        client.setNoDelay(true);
        upstream.on('error', () => client.destroy());
        client.on('error', () => upstream.destroy());
        // An orderly close ends the other side once what was piped is flushed (destroy would drop
        // the tail of a response still buffered for a slow reader); an error tears it down.
        upstream.once('close', (hadError) => (hadError ? client.destroy() : client.end()));
        client.once('close', (hadError) => (hadError ? upstream.destroy() : upstream.end()));
        client.pipe(upstream);
        upstream.pipe(client);
        client.resume();
      });
    };
    client.on('error', () => {});
    connect();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : opts.port,
    connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
