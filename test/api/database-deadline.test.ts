import { loadConfig } from '../../src/config';
import {
  createConfiguredDb,
  createDb,
  DatabaseDeadlineError,
  type Db,
  isDatabaseUnavailable,
  UNANSWERED_GRACE_MS,
} from '../../src/db/knex';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { eventually } from '../helpers/eventually';
import { PgProxy } from '../helpers/pg-proxy';

const STATEMENT_TIMEOUT_MS = 1_000;
const DEADLINE_MS = STATEMENT_TIMEOUT_MS + UNANSWERED_GRACE_MS;

/** How long `work` took to fail, and with what. */
async function failure(work: Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = Date.now();
  try {
    await work;
  } catch (error) {
    return { error, ms: Date.now() - started };
  }
  throw new Error('expected the statement to fail');
}

/**
 * A frozen Postgres (SIGSTOPped, or cut off with its packets dropped) answers nothing and closes
 * nothing, and statement_timeout is its own: a statement on a pooled connection must still fail
 * within the pool's deadline (statement timeout + UNANSWERED_GRACE_MS), BEGIN and COMMIT included,
 * and that connection must never be lent again.
 */
describe('a statement Postgres does not answer', () => {
  let database: TestDatabase;
  let proxy: PgProxy;
  let db: Db;

  beforeAll(async () => {
    database = await createTestDatabase();
    proxy = await PgProxy.forUrl(database.url).start();
    db = createDb(proxy.rewrite(database.url), 1, undefined, { statementTimeoutMs: STATEMENT_TIMEOUT_MS });
  });
  afterAll(async () => {
    proxy?.up();
    await db?.destroy();
    await proxy?.stop();
    await database?.drop();
  });

  const backendPid = async () => (await db.raw('select pg_backend_pid() as pid')).rows[0].pid as number;

  it('fails as database-unavailable at the deadline, and its connection is closed rather than reused', async () => {
    const before = await backendPid();
    proxy.freeze();
    let timedOut: Awaited<ReturnType<typeof failure>>;
    try {
      timedOut = await failure(db.raw('select 1'));
    } finally {
      proxy.up();
    }
    expect(timedOut.error).toBeInstanceOf(DatabaseDeadlineError);
    expect(isDatabaseUnavailable(timedOut.error)).toBe(true);
    expect(timedOut.ms).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
    expect(timedOut.ms).toBeLessThan(DEADLINE_MS + 2_000); // generous for a loaded machine
    // Postgres is back: the next statement runs, on another session (the unanswered one was closed).
    const after = await backendPid();
    expect(after).not.toBe(before);
    const sessions = await eventually(
      () => database.db('pg_stat_activity').where({ pid: before }).count({ n: '*' }),
      ([row]) => Number(row?.n) === 0,
      { describe: `the closed session ${before} to end on the server` },
    );
    expect(Number(sessions[0]?.n)).toBe(0);
  });

  it('bounds transaction control too: a COMMIT Postgres does not answer fails at the deadline', async () => {
    let timedOut: Awaited<ReturnType<typeof failure>>;
    try {
      timedOut = await failure(
        db.transaction(async (trx) => {
          await trx.raw('select 1');
          proxy.freeze(); // the COMMIT that follows is held
        }),
      );
    } finally {
      proxy.up();
    }
    expect(isDatabaseUnavailable(timedOut.error)).toBe(true);
    expect(timedOut.ms).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
    expect(timedOut.ms).toBeLessThan(DEADLINE_MS + 2_000);
    expect((await db.raw('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });

  it('leaves the statement timeout to the server: Postgres cancels a long statement (57014) and the session stays', async () => {
    const before = await backendPid();
    const cancelled = await failure(db.raw('select pg_sleep(5)'));
    expect((cancelled.error as { code?: string }).code).toBe('57014');
    expect(cancelled.ms).toBeLessThan(DEADLINE_MS);
    expect(await backendPid()).toBe(before);
  });

  it("a standalone process's pool takes both timeouts from its configuration (the API's and the worker's)", async () => {
    const { database: configuredDatabase } = loadConfig({
      DATABASE_URL: database.url,
      DATABASE_STATEMENT_TIMEOUT_MS: '4321',
      DATABASE_CONNECT_TIMEOUT_MS: '2500',
    });
    const configured = createConfiguredDb({ ...configuredDatabase, url: database.url });
    try {
      const [{ statement_timeout: timeout }] = (await configured.raw('show statement_timeout')).rows;
      expect(timeout).toBe('4321ms');
      expect(
        (configured.client.config.connection as { connectionTimeoutMillis?: number }).connectionTimeoutMillis,
      ).toBe(2500);
    } finally {
      await configured.destroy();
    }
  });
});
