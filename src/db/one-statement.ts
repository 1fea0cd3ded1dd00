import type { Knex } from 'knex';
import type { Db } from './knex';
import { prepared } from './prepared';

/** A write built with knex and not yet sent (any table's insert, update or delete). */
export interface Write {
  toSQL(): Knex.Sql;
}

/**
 * Several writes sent as ONE statement, so one round trip and atomic without BEGIN and COMMIT:
 * each write but the last becomes a data-modifying CTE (Postgres runs every one of them once and
 * to completion, whether or not anything reads it), the last is the main statement. The writes
 * all see the snapshot from before the statement, so none may depend on another's effect;
 * foreign keys are checked at the statement's end, so a row may refer to one inserted beside it.
 */
export async function writeAsOneStatement(db: Db, writes: readonly Write[]): Promise<void> {
  const parts = writes.map((write) => write.toSQL());
  const main = parts.pop();
  if (!main) return;
  const ctes = parts.map((part, i) => `w${i} as (${part.sql})`);
  const sql = ctes.length ? `with ${ctes.join(', ')} ${main.sql}` : main.sql;
  await prepared(db.raw(sql, [...parts.flatMap((part) => part.bindings), ...main.bindings]));
}
