import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { MIGRATIONS } from '../../src/db/migrations';

/**
 * Every table of the migrations has its typed table (src/db/tables/, registered in knex's Tables
 * registry by src/db/tables/index.ts), and the repositories reach tables only through it: a table
 * a repository names (`db('x')`, `trx('x')`, a join, a from, or `insert into x` / `update x` /
 * `from x` in raw SQL) must be registered, and no `db<Row>('x')` may put its own row type over
 * the registered one. A new table or a new query of an unregistered one fails here.
 */
const root = path.resolve(__dirname, '../..');
const read = (rel: string) => readFileSync(path.join(root, rel), 'utf8');

/** Code without comments: they are prose, not queries. */
const codeOf = (text: string) =>
  text
    .split('\n')
    .map((line) => line.replace(/^\s*(\/\/|\/?\*).*$/, '').replace(/\s\/\/ .*$/, ''))
    .join('\n');

const BUILDER_TABLE = [
  /(?<![\w.$])(?:db|trx|knex|tx)\s*(?:<[^<>()]*>)?\s*\(\s*['"`](\w+)/g,
  /\.(?:join|leftJoin|innerJoin|rightJoin|from|into|table)\(\s*['"`](\w+)/g,
];
const ROW_TYPE_OVER_TABLE = /(?<![\w.$])(?:db|trx|knex|tx)\s*<[^<>()]+>\s*\(\s*['"`]\w+/g;
/**
 * Raw SQL's table names; `with x as (` names, set-returning functions (`from unnest(`) and the
 * `from` of `extract(epoch from …)` are not tables.
 */
const RAW_TABLE =
  /\b(?:(?:insert\s+into|(?<!\b(?:epoch|year|month|week|day|hour|minute|second)\s+)from|join)\s+([a-z_]+)\b(?!\s*\()|update\s+([a-z_]+)(?:\s+(?:as\s+)?[a-z_]+)?\s+set\b)/g;
const CTE = /\b([a-z_]+)\s+as\s+(?:materialized\s+)?\(/g;
const SQL_WORDS = new Set(['set', 'select', 'lateral', 'only']);

/** The tables of knex's registry, as src/db/tables/index.ts declares them. */
function registered(): Set<string> {
  const registry = /interface Tables \{([^}]*)\}/.exec(read('src/db/tables/index.ts'))?.[1] ?? '';
  return new Set([...registry.matchAll(/^\s*(\w+):\s*\w+;/gm)].map((m) => m[1] as string));
}

/** The tables the migrations leave, in order: created, less those dropped by a later one. */
async function migratedTables(): Promise<Set<string>> {
  const tables = new Set<string>();
  const schema = {
    createTable: (name: string) => tables.add(name),
    createTableIfNotExists: (name: string) => tables.add(name),
    dropTable: (name: string) => tables.delete(name),
    dropTableIfExists: (name: string) => tables.delete(name),
    renameTable: (from: string, to: string) => tables.delete(from) && tables.add(to),
  };
  // The migrations run against a recorder: only their table-level statements count.
  const recorder: unknown = new Proxy(() => recorder, {
    get: (_t, prop) => (prop === 'schema' ? schemaRecorder : prop === 'then' ? undefined : recorder),
    apply: () => recorder,
  });
  const schemaRecorder: unknown = new Proxy(
    {},
    {
      get: (_t, prop) =>
        prop in schema
          ? (...args: string[]) => {
              (schema[prop as keyof typeof schema] as (...a: string[]) => unknown)(...args);
              return Promise.resolve();
            }
          : prop === 'then'
            ? undefined
            : () => Promise.resolve(),
    },
  );
  for (const { migration } of MIGRATIONS) await migration.up(recorder as never);
  return tables;
}

const repositories = () =>
  readdirSync(path.join(root, 'src/db/repositories'))
    .filter((name) => name.endsWith('.ts'))
    .map((name) => `src/db/repositories/${name}`);

function tablesNamedIn(rel: string): Array<{ table: string; raw: boolean }> {
  const code = codeOf(read(rel)).replace(/^import .*$/gm, '');
  const builder = BUILDER_TABLE.flatMap((pattern) => [...code.matchAll(pattern)].map((m) => m[1] as string));
  const ctes = new Set([...code.matchAll(CTE)].map((m) => m[1] as string));
  const strings = code.match(/`[^`]*`|'(?:[^'\\\n]|\\.)*'/g) ?? [];
  const raw = strings.flatMap((s) =>
    [...s.matchAll(RAW_TABLE)].map((m) => (m[1] ?? m[2]) as string).filter((t) => !ctes.has(t) && !SQL_WORDS.has(t)),
  );
  return [...builder.map((table) => ({ table, raw: false })), ...raw.map((table) => ({ table, raw: true }))];
}

describe('typed tables', () => {
  it('reads table names from queries, and row types put over a table', () => {
    const code =
      "await db('merchants').first(); trx<MerchantRow>('sites'); q.join('api_keys as k', 'k.id', 't.key_id');";
    expect(BUILDER_TABLE.flatMap((p) => [...code.matchAll(p)].map((m) => m[1]))).toEqual([
      'merchants',
      'sites',
      'api_keys',
    ]);
    expect(code.match(ROW_TYPE_OVER_TABLE)).toEqual(["trx<MerchantRow>('sites"]);
    const sql =
      'with claimed as (update deliveries d set x = 1 from unnest(?) as u) select * from claimed c join events e' +
      ' where extract(epoch from completed_at - created_at) > 0';
    const ctes = new Set([...sql.matchAll(CTE)].map((m) => m[1]));
    expect([...sql.matchAll(RAW_TABLE)].map((m) => m[1] ?? m[2]).filter((t) => !ctes.has(t as string))).toEqual([
      'deliveries',
      'events',
    ]);
  });

  it('has a typed table for every table of the migrations, and none for a table they do not leave', async () => {
    const tables = await migratedTables();
    expect(tables.has('orders') && tables.has('webhook_endpoints')).toBe(true);
    expect([...tables].filter((t) => !registered().has(t)).sort()).toEqual([]);
    expect([...registered()].filter((t) => !tables.has(t)).sort()).toEqual([]);
  });

  it('has the repositories name only typed tables', () => {
    const known = registered();
    const untyped = repositories().flatMap((rel) =>
      tablesNamedIn(rel)
        .filter(({ table }) => !known.has(table))
        .map(({ table, raw }) => `${rel}: ${raw ? 'raw SQL names' : 'queries'} ${table}`),
    );
    expect(untyped).toEqual([]);
  });

  it('has no repository put its own row type over a typed table', () => {
    const overridden = repositories().flatMap((rel) =>
      (codeOf(read(rel)).match(ROW_TYPE_OVER_TABLE) ?? []).map((call) => `${rel}: ${call}`),
    );
    expect(overridden).toEqual([]);
  });
});
