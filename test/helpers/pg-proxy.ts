import net, { type AddressInfo } from 'node:net';
import { closeServer, listen } from '../../src/api/server';
import { createDb, type Db, type DbTimeouts } from '../../src/db/knex';
import type { TestStack } from './stack';

/**
 * A TCP proxy in front of the shared test Postgres that a test can take down (connections reset,
 * new ones refused: Postgres killed) or freeze (bytes held in both directions, new connections
 * accepted but never answered: Postgres SIGSTOPped), then bring back. The shared Postgres, used by
 * other test files in parallel, is never touched.
 */
export class PgProxy {
  private mode: 'up' | 'down' | 'frozen' = 'up';
  private readonly pairs = new Set<[net.Socket, net.Socket]>();
  private server: net.Server | undefined;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  static forUrl(url: string): PgProxy {
    const u = new URL(url);
    return new PgProxy(u.hostname, Number(u.port || 5432));
  }

  /** `url` with its host and port replaced by the proxy's. */
  rewrite(url: string): string {
    const u = new URL(url);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }

  async start(): Promise<this> {
    this.server = net.createServer((client) => {
      if (this.mode === 'down') {
        client.destroy();
        return;
      }
      const upstream = net.connect(this.targetPort, this.targetHost);
      const pair: [net.Socket, net.Socket] = [client, upstream];
      this.pairs.add(pair);
      const drop = () => {
        client.destroy();
        upstream.destroy();
        this.pairs.delete(pair);
      };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
      client.pipe(upstream);
      upstream.pipe(client);
      if (this.mode === 'frozen') this.hold(pair);
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  private hold([client, upstream]: [net.Socket, net.Socket]): void {
    client.unpipe(upstream);
    upstream.unpipe(client);
    client.pause();
    upstream.pause();
  }

  /** Postgres killed: every connection reset, new ones refused. */
  down(): void {
    this.mode = 'down';
    for (const [client, upstream] of this.pairs) {
      client.destroy();
      upstream.destroy();
    }
    this.pairs.clear();
  }

  /** Postgres frozen: nothing goes through, nothing is closed. */
  freeze(): void {
    this.mode = 'frozen';
    for (const pair of this.pairs) this.hold(pair);
  }

  /** Back to normal (held connections resume where they were). */
  up(): void {
    const wasFrozen = this.mode === 'frozen';
    this.mode = 'up';
    if (!wasFrozen) return;
    for (const [client, upstream] of this.pairs) {
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
      upstream.resume();
    }
  }

  async stop(): Promise<void> {
    this.down();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

/**
 * A second API on the stack's database, reaching Postgres only through a PgProxy the test can
 * take down or freeze, its pool made with `timeouts`. `stop` brings the proxy back up first, then
 * closes everything it opened.
 */
export async function startApiBehindProxy(
  stack: TestStack,
  poolMax: number,
  timeouts: Partial<DbTimeouts> = {},
): Promise<{ proxy: PgProxy; db: Db; base: string; stop(): Promise<void> }> {
  const proxy = await PgProxy.forUrl(stack.databaseUrl).start();
  const db = createDb(proxy.rewrite(stack.databaseUrl), poolMax, stack.logs.logger, timeouts);
  const server = await listen(
    { config: stack.config, db, temporal: stack.connection, temporalClient: stack.client, logger: stack.logs.logger },
    '127.0.0.1',
    0,
    stack.config.http,
  );
  return {
    proxy,
    db,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async stop() {
      proxy.up();
      await closeServer(server);
      await db.destroy();
      await proxy.stop();
    },
  };
}
