import type { Knex } from 'knex';

/**
 * A timestamptz column as written: a Date, an ISO 8601 string, or SQL (`clock_timestamp()`).
 * Read, it is a Date (node-postgres).
 */
export type Instant = Date | string | Knex.Raw;
