import type { Knex } from 'knex';
import { loadDatabaseConfig, orExit } from '../src/config';
import { createDb, type Db } from '../src/db/knex';
import { migrateToLatest } from '../src/db/migrate';
import { MIGRATIONS } from '../src/db/migrations';

/**
 * `npm run migrate` (the image: `node dist/scripts/migrate.js`; the compose `migrate` service; the
 * Helm pre-install/pre-upgrade Job): brings the schema of DATABASE_URL up to date with the
 * lock-protected migrations of src/db/migrate.ts, then exits (0 on success).
 *
 *   npm run migrate              apply what is pending
 *   npm run migrate -- --status  list applied and pending migrations, change nothing
 *   npm run migrate -- --unlock  free knex's migration lock left by a process that died mid-run
 *
 * knex refuses at once when another process holds the lock; this waits for it (up to
 * MIGRATE_LOCK_WAIT_MS, default 120 s) so concurrent deploy steps queue instead of failing.
 * docs/runbook.md#a-stuck-migration-lock says when `--unlock` is safe.
 */

const source: Knex.MigrationSource<(typeof MIGRATIONS)[number]> = {
  getMigrations: async () => [...MIGRATIONS],
  getMigrationName: (m) => m.name,
  getMigration: async (m) => m.migration,
};

const say = (line: string) => process.stdout.write(`[migrate] ${line}\n`);

function isLocked(err: unknown): boolean {
  return err instanceof Error && (err.name === 'MigrationLocked' || /already locked/i.test(err.message));
}

async function latest(db: Db, waitMs: number): Promise<string[]> {
  const deadline = Date.now() + waitMs;
  let announced = false;
  for (;;) {
    try {
      return await migrateToLatest(db);
    } catch (err) {
      if (!isLocked(err) || Date.now() >= deadline) {
        if (isLocked(err)) {
          throw new Error(
            `the migration lock is still held after ${waitMs} ms; if no migration is running (a crashed pod), free it with: npm run migrate -- --unlock`,
          );
        }
        throw err;
      }
      if (!announced) say('another process holds the migration lock; waiting for it');
      announced = true;
      await new Promise((r) => setTimeout(r, 1_000));
    }
  }
}

async function main(): Promise<void> {
  const args = new Set(process.argv.slice(2));
  // Postgres's settings only: the migration Job is given DATABASE_URL and nothing else.
  const database = orExit(() => loadDatabaseConfig());
  if (!database.url) {
    process.stderr.write('[migrate] DATABASE_URL is required (npm start migrates its embedded database itself)\n');
    process.exit(1);
  }
  const db = createDb(database.url, 1, undefined, {
    connectTimeoutMs: Math.max(database.connectTimeoutMs, 5_000),
    // Migrations may rewrite large tables: no statement timeout beyond Postgres' own.
    statementTimeoutMs: 3_600_000,
  });
  try {
    if (args.has('--unlock')) {
      await db.migrate.forceFreeMigrationsLock({ migrationSource: source });
      say('migration lock freed');
    } else if (args.has('--status')) {
      const [done, pending] = (await db.migrate.list({ migrationSource: source })) as [
        Array<{ name: string }>,
        Array<{ file?: string; name?: string }>,
      ];
      say(`applied: ${done.length ? done.map((m) => m.name).join(', ') : 'none'}`);
      say(`pending: ${pending.length ? pending.map((m) => m.file ?? m.name).join(', ') : 'none'}`);
    } else {
      const waitMs = Number(process.env.MIGRATE_LOCK_WAIT_MS ?? 120_000);
      const applied = await latest(db, Number.isFinite(waitMs) ? waitMs : 120_000);
      say(applied.length ? `applied ${applied.join(', ')}` : 'schema up to date');
    }
  } finally {
    await db.destroy();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`[migrate] failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
