import { randomUUID } from 'node:crypto';
import knexFactory from 'knex';
import { createDb, type Db } from '../../src/db/knex';
import { shared } from './shared-env';

export interface TestDatabase {
  db: Db;
  url: string;
  drop(): Promise<void>;
}

/** A fresh database for one test file, cloned from the migrated template (milliseconds). */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `t_${randomUUID().replace(/-/g, '')}`;
  const admin = knexFactory({ client: 'pg', connection: shared('pgAdminUrl'), pool: { min: 0, max: 1 } });
  try {
    await admin.raw('create database ?? template ??', [name, shared('templateDatabase')]);
  } finally {
    await admin.destroy();
  }
  const url = new URL(shared('pgAdminUrl'));
  url.pathname = `/${name}`;
  // Several stacks, Temporal servers and a browser share two cores here: starting a Postgres
  // backend can take seconds at a peak, past the 1 s a production pool allows (CI run of
  // 2026-11-27: four connect timeouts failed a dashboard request). Outage tests use their own pools.
  const db = createDb(url.toString(), 5, undefined, { connectTimeoutMs: 5_000 });
  return {
    db,
    url: url.toString(),
    drop: async () => {
      await db.destroy();
      const cleanup = knexFactory({ client: 'pg', connection: shared('pgAdminUrl'), pool: { min: 0, max: 1 } });
      await cleanup.raw('drop database if exists ?? with (force)', [name]).finally(() => cleanup.destroy());
    },
  };
}
