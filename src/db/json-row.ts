/**
 * A table row that Postgres sent as JSON (`to_jsonb(t)`), typed as node-postgres gives it from a
 * plain select: JSON already carries uuids and text as strings, integers, bigints and numerics as
 * numbers (as src/db/knex.ts parses them) and arrays as arrays; only timestamps come as ISO 8601
 * text, so the columns named in `instants` become Dates (null stays null).
 */
export function rowFromJson<Row>(
  json: Record<string, unknown> | null | undefined,
  instants: readonly (keyof Row & string)[],
): Row | undefined {
  if (!json) return undefined;
  const row: Record<string, unknown> = { ...json };
  for (const column of instants) {
    const value = row[column];
    if (typeof value === 'string') row[column] = new Date(value);
  }
  return row as Row;
}
