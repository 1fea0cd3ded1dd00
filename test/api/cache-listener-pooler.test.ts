import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../../scripts/cluster/free-ports';
import { CacheNotifications } from '../../src/db/cache-notifications';
import { createDb, type Db } from '../../src/db/knex';
import { CACHE_CHANNEL } from '../../src/db/migrations/20261129010000_cache_notifications';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { eventually } from '../helpers/eventually';
import { capturedLogger } from '../helpers/log-capture';

/**
 * The API's cache listener behind a real PgBouncer in transaction mode (docs/deployment.md,
 * "Connection poolers"): the listening backend serves other clients between the listener's
 * queries and they get its notifications, so a revoked key's tokens would be served for ever.
 * The listener finds its heartbeat answered by another backend and turns the caches off for
 * good, saying why; with DATABASE_LISTEN_URL on a direct connection it hears every change.
 */
const PGBOUNCER = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((p) => existsSync(p));

describe('the cache listener behind a transaction pooler (PgBouncer)', () => {
  let database: TestDatabase;
  let dir: string;
  let bouncer: ChildProcess;
  let pooledUrl: string;
  let pooledDb: Db;
  const busy: pg.Client[] = [];
  let stopBusy = false;
  let busyQueries = 0;
  let load: Promise<unknown>;

  beforeAll(async () => {
    if (!PGBOUNCER) throw new Error('PgBouncer is not installed (apt-get install pgbouncer; .ci/run does)');
    database = await createTestDatabase();
    const direct = new URL(database.url);
    const port = await freePort();
    dir = await mkdtemp(path.join(tmpdir(), 'prs-pgbouncer-'));
    await chmod(dir, 0o777); // PgBouncer refuses to run as root: as nobody, it reads these and writes its log
    const user = decodeURIComponent(direct.username);
    await writeFile(path.join(dir, 'users.txt'), `"${user}" "${decodeURIComponent(direct.password)}"\n`, {
      mode: 0o644,
    });
    const ini = [
      '[databases]',
      `app = host=${direct.hostname} port=${direct.port} dbname=${direct.pathname.slice(1)}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = plain',
      `auth_file = ${path.join(dir, 'users.txt')}`,
      'pool_mode = transaction',
      'default_pool_size = 3',
      // The service's connections send their statement timeout at startup; PgBouncer 1.18 (Debian's)
      // cannot track it (1.20+: track_extra_parameters, docs/deployment.md), so it is dropped here.
      'ignore_startup_parameters = statement_timeout',
      `logfile = ${path.join(dir, 'pgbouncer.log')}`,
    ].join('\n');
    await writeFile(path.join(dir, 'pgbouncer.ini'), `${ini}\n`, { mode: 0o644 });
    const asRoot = process.getuid?.() === 0;
    bouncer = spawn(
      asRoot ? 'runuser' : PGBOUNCER,
      asRoot ? ['-u', 'nobody', '--', PGBOUNCER, path.join(dir, 'pgbouncer.ini')] : [path.join(dir, 'pgbouncer.ini')],
      { stdio: 'ignore' },
    );
    pooledUrl = `postgres://${direct.username}:${direct.password}@127.0.0.1:${port}/app`;
    // Other clients of the pool (the API's own queries, other processes): busy through the test.
    for (let i = 0; i < 3; i += 1) {
      const client = await eventually(
        async () => {
          const c = new pg.Client({ connectionString: pooledUrl });
          return c.connect().then(
            () => c,
            () => undefined,
          );
        },
        (c) => c !== undefined,
        { describe: 'a connection through PgBouncer' },
      );
      client?.on('error', () => undefined);
      if (client) busy.push(client);
    }
    load = Promise.all(
      busy.map(async (c) => {
        while (!stopBusy) {
          await c.query('select pg_sleep(0.005)').catch(() => undefined);
          busyQueries += 1;
        }
      }),
    );
    pooledDb = createDb(pooledUrl, 2);
  }, 60_000);

  afterAll(async () => {
    stopBusy = true;
    await load;
    await Promise.all(busy.map((c) => c.end().catch(() => undefined)));
    await pooledDb?.destroy();
    bouncer?.kill();
    if (bouncer && bouncer.exitCode === null) await new Promise((r) => bouncer.once('exit', r));
    if (dir && !process.env.KEEP_PGB) await rm(dir, { recursive: true, force: true });
    await database?.drop();
  });

  it('finds itself pooled: the caches stay off for good and an error says to set DATABASE_LISTEN_URL', async () => {
    const { logger, lines } = capturedLogger();
    const notifications = CacheNotifications.forDb(pooledDb, logger).start();
    try {
      await eventually(
        () => lines.find((l) => l.includes('DATABASE_LISTEN_URL')),
        (line) => line !== undefined,
        { describe: "the listener's error about the pooler", timeoutMs: 10_000 },
      );
      expect(notifications.isLive()).toBe(false);
      // Many pooled queries later (each a chance to be handed the listening backend again), still off.
      const after = busyQueries + 300;
      await eventually(
        () => busyQueries,
        (n) => n >= after,
        { describe: '300 more queries through the pool' },
      );
      expect(notifications.isLive()).toBe(false);
      expect(lines.filter((l) => l.includes('DATABASE_LISTEN_URL'))).toHaveLength(1);
    } finally {
      await notifications.stop();
    }
  });

  it('with DATABASE_LISTEN_URL on a direct connection, it listens there and hears every change', async () => {
    const heard: string[] = [];
    const notifications = CacheNotifications.forDb(pooledDb, capturedLogger().logger, database.url).start();
    notifications.onInvalidate((table) => heard.push(table));
    try {
      await eventually(
        async () => notifications.isLive(),
        (live) => live,
        { describe: 'the listener to be live', timeoutMs: 5_000, intervalMs: 20 },
      );
      const heardBefore = heard.length;
      // Sent through the pool, as the API's own writes are: the trigger's NOTIFY on commit.
      await pooledDb.raw('select pg_notify(?, ?)', [CACHE_CHANNEL, 'api_keys']);
      await notifications.catchUp();
      expect(heard.slice(heardBefore)).toEqual(['api_keys']);
      expect(notifications.isLive()).toBe(true);
    } finally {
      await notifications.stop();
    }
  });
});
