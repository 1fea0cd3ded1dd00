import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * SQL lives in src/db (typed tables, repositories); the rest of src/ calls repository functions.
 * A knex call outside src/db — `db(...)`, `trx(...)` or `knex(...)` (also `deps.db(...)` and with a
 * row type, `db<Row>(...)`), or `.raw(...)` — fails this test.
 */
const KNEX_CALLS = [
  /(?<![\w.$])(?:db|trx|knex)\s*(?:<[^<>()]*>)?\s*\(/,
  /\.(?:db|trx|knex)\s*(?:<[^<>()]*>)?\s*\(/,
  /\.raw\s*\(/,
];

/**
 * Files still holding knex calls, each with why. Remove an entry once its file calls a repository:
 * the test then guards it too (and fails while a listed file no longer needs its entry).
 */
const TOLERATED: Record<string, string> = {
  // Empty: the order use cases' last queries moved into src/db/repositories.
};

const root = path.resolve(__dirname, '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return rel === 'src/db' ? [] : sourceFiles(rel);
    return /\.(ts|tsx)$/.test(entry.name) ? [rel] : [];
  });
}

/** The file's lines with a knex call, as `file:line: text`; comments are prose, not calls. */
function knexCalls(rel: string): string[] {
  return readFileSync(path.join(root, rel), 'utf8')
    .split('\n')
    .map((text, index) => ({ code: text.replace(/^\s*(\/\/|\/?\*).*$/, '').replace(/\s\/\/ .*$/, ''), index }))
    .filter(({ code }) => KNEX_CALLS.some((call) => call.test(code)))
    .map(({ code, index }) => `${rel}:${index + 1}: ${code.trim()}`);
}

describe('SQL in src/db', () => {
  it('finds a knex call outside src/db', () => {
    const caught = ["await db('orders').first();", 'deps.db<OrderRow>("orders")', 'trx.raw("select 1")'];
    for (const line of caught) expect(KNEX_CALLS.some((call) => call.test(line))).toBe(true);
    const passed = ['await findOrderById(deps.db, id);', 'withDb(x)', 'String.raw`a`', 'const sql = db;'];
    for (const line of passed) expect(KNEX_CALLS.some((call) => call.test(line))).toBe(false);
  });

  it('has no knex call in src/ outside src/db, but in the tolerated files', () => {
    const found = sourceFiles('src')
      .filter((rel) => !(rel in TOLERATED))
      .flatMap(knexCalls);
    expect(found).toEqual([]);
  });

  it('tolerates only files that exist and still call knex', () => {
    const stale = Object.keys(TOLERATED).filter((rel) => {
      try {
        return knexCalls(rel).length === 0;
      } catch {
        return true; // gone: drop it from the list
      }
    });
    expect(stale).toEqual([]);
  });
});
