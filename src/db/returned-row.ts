/**
 * The row an insert or update `.returning(...)` gave back (knex types it as an array, maybe
 * empty); none is a defect, thrown rather than carried on as undefined.
 */
export function returnedRow<T>(rows: readonly T[], table: string): T {
  const [row] = rows;
  if (row === undefined) throw new Error(`${table}: the statement returned no row`);
  return row;
}
