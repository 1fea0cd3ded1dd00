import type { Knex } from 'knex';

/**
 * A timestamptz column as written: a Date, an ISO 8601 string, or SQL (`clock_timestamp()`).
 * Read, it is a Date (node-postgres).
 */
export type Instant = Date | string | Knex.Raw;

/**
 * A row type's every column, listed for a statement that must name its result's columns
 * (src/db/prepared.ts): the compiler refuses the list while a field of `R` is missing from it.
 */
export function allColumns<R>() {
  return <const K extends readonly (keyof R & string)[]>(
    columns: K & ([Exclude<keyof R, K[number]>] extends [never] ? unknown : ['missing', Exclude<keyof R, K[number]>]),
  ): K => columns;
}
