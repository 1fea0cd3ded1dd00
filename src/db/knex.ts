import knexFactory, { type Knex } from 'knex';

export type Db = Knex;

/** The knex instance over pg. One pool per process. */
export function createDb(url: string, poolMax = 10): Db {
  return knexFactory({
    client: 'pg',
    connection: { connectionString: url, application_name: 'payment-rescue' },
    pool: { min: 0, max: poolMax },
    acquireConnectionTimeout: 10_000,
  });
}

/** True when the database answers a trivial query within the timeout. */
export async function isDatabaseReachable(db: Db, timeoutMs = 2_000): Promise<boolean> {
  try {
    await db.raw('select 1').timeout(timeoutMs, { cancel: true });
    return true;
  } catch {
    return false;
  }
}
