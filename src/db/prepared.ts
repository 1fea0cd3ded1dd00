import { createHash } from 'node:crypto';
import type { Knex } from 'knex';

/**
 * Named (prepared) statements for the hot path: Postgres parses and plans a named statement once
 * per connection and then, once its generic plan is as good, only binds and runs it. An
 * evaluate's big statements (the idempotency claim with its reads, the charge's answer with the
 * order) spent more time being planned than run (pg_stat_statements, docs/benchmarks.md).
 *
 * The name is the hash of the statement's text, so a statement whose text varies (the number of
 * events it inserts) is one name per text; at most MAX_NAMES names are made by a process, so a
 * connection never holds more than that, and any text after them goes unnamed, as before.
 *
 * A named statement must name its result's columns: a `*` in its result (`select *`, `t.*`,
 * `returning *`) would fail every call with "cached plan must not change result type" once a
 * migration added a column under a running process. Such a text is refused here, at the first
 * test that sends it.
 */
export const MAX_NAMES = 500;
const names = new Set<string>();
const STAR_RESULT = /\breturning\s+\*|\bselect\s+\*|\w\.\*/i;

export function prepared<Q extends Knex.QueryBuilder | Knex.Raw>(query: Q): Q {
  const { sql } = query.toSQL();
  if (STAR_RESULT.test(sql)) throw new Error(`a prepared statement names its result's columns, not *: ${sql}`);
  const name = `ps_${createHash('sha1').update(sql).digest('base64url')}`;
  if (!names.has(name)) {
    if (names.size >= MAX_NAMES) return query;
    names.add(name);
  }
  return query.options({ name }) as Q;
}
