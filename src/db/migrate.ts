import type { Knex } from 'knex';
import type { Db } from './knex';
import { MIGRATIONS } from './migrations';

const source: Knex.MigrationSource<(typeof MIGRATIONS)[number]> = {
  getMigrations: async () => [...MIGRATIONS],
  getMigrationName: (m) => m.name,
  getMigration: async (m) => m.migration,
};

/** Brings the schema up to date; returns the names of the migrations it applied. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const [, applied] = (await db.migrate.latest({ migrationSource: source })) as [number, string[]];
  return applied;
}
