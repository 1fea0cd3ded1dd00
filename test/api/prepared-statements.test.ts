import { createDb, type Db } from '../../src/db/knex';
import { MAX_NAMES, prepared } from '../../src/db/prepared';
import { createTestDatabase, type TestDatabase } from '../helpers/database';

/**
 * The hot path's named statements (src/db/prepared.ts), on real Postgres: prepared once per
 * connection, still right after a migration adds a column, bounded in number, and refused when
 * their result is a `*`.
 */
describe('prepared statements', () => {
  let database: TestDatabase;
  let one: Db; // one connection, so what it has prepared can be read on it

  beforeAll(async () => {
    database = await createTestDatabase();
    one = createDb(database.url, 1, undefined, { connectTimeoutMs: 5_000 });
    await one.raw('create table prepared_probe (id int primary key, label text not null)');
    await one('prepared_probe').insert([
      { id: 1, label: 'one' },
      { id: 2, label: 'two' },
    ]);
  });
  afterAll(async () => {
    await one?.destroy();
    await database?.drop();
  });

  const preparedOnConnection = async (): Promise<string[]> =>
    (await one.raw<{ rows: Array<{ statement: string }> }>('select statement from pg_prepared_statements')).rows.map(
      (r) => r.statement,
    );
  const labelOf = (id: number) => prepared(one('prepared_probe').select('id', 'label').where({ id }));

  it('prepares a statement once on its connection and runs it with other values after', async () => {
    expect(await labelOf(1)).toEqual([{ id: 1, label: 'one' }]);
    expect(await labelOf(2)).toEqual([{ id: 2, label: 'two' }]);
    const statements = (await preparedOnConnection()).filter((s) => s.includes('prepared_probe'));
    expect(statements).toHaveLength(1);
    expect(statements[0]).toContain('"id" = $1');
  });

  it('keeps answering after a migration adds a column under it (its result names its columns)', async () => {
    await labelOf(1);
    await one.raw("alter table prepared_probe add column note text not null default 'n'");
    expect(await labelOf(1)).toEqual([{ id: 1, label: 'one' }]);
  });

  it('refuses a statement whose result is a * (a migration would break it on every connection)', () => {
    expect(() => prepared(one('prepared_probe').select('*'))).toThrow(/names its result's columns/);
    expect(() => prepared(one.raw('select p.* from prepared_probe p where id = ?', [1]))).toThrow(/not \*/);
    expect(() => prepared(one('prepared_probe').insert({ id: 3, label: 'x' }).returning('*'))).toThrow(/not \*/);
    expect(() => prepared(one.raw('select count(*) as n from prepared_probe where id > ?', [0]))).not.toThrow();
  });

  it('would fail a named * after such a migration, on every call: why a * is refused', async () => {
    const star = () => one.raw('select * from prepared_probe where id = ?', [1]).options({ name: 'probe_star' });
    expect((await star()).rows).toHaveLength(1);
    await one.raw('alter table prepared_probe add column extra int');
    await expect(star()).rejects.toThrow(/cached plan must not change result type/);
    await expect(star()).rejects.toThrow(/cached plan must not change result type/);
  });

  it(`names at most ${MAX_NAMES} texts in a process; the rest run unnamed`, async () => {
    const texts = Array.from({ length: MAX_NAMES + 5 }, (_, i) => `select ?::int + ${i} as n`);
    for (const [i, text] of texts.entries()) {
      expect(await prepared(one.raw(text, [1]))).toMatchObject({ rows: [{ n: 1 + i }] });
    }
    const named = (await preparedOnConnection()).length;
    expect(named).toBeLessThanOrEqual(MAX_NAMES);
    expect(named).toBeGreaterThan(MAX_NAMES - 10); // the texts above filled the names up
  });
});
