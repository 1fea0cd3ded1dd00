import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import type { Logger } from '../logger';

export type Db = Knex;

// bigint (amounts in minor units, sequences) and numeric (scores) as numbers: every value we
// store stays far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));

/** The knex instance over pg. One pool per process; knex's own warnings go to the logger. */
export function createDb(url: string, poolMax = 10, logger?: Logger): Db {
  return knexFactory({
    ...(logger && {
      log: {
        warn: (message: unknown) => logger.warn({ source: 'knex' }, String(message)),
        error: (message: unknown) => logger.error({ source: 'knex' }, String(message)),
        deprecate: (message: unknown) => logger.warn({ source: 'knex' }, String(message)),
        debug: () => {},
      },
    }),
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
