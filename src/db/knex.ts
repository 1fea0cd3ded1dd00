import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import type { DatabaseConfig } from '../config/database';
import type { Logger } from '../logger';

export type Db = Knex;

// bigint (amounts in minor units, sequences) and numeric (scores) as numbers: every value we
// store stays far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));

export interface DbTimeouts {
  /** A new connection (TCP, TLS, startup) must be ready within this (a frozen server never answers). */
  connectTimeoutMs: number;
  /** Server-side statement_timeout on every connection: the backstop for slow statements. */
  statementTimeoutMs: number;
  /** Waiting for a pool slot (including making the connection) longer than this fails the query. */
  acquireTimeoutMs: number;
}

export const DEFAULT_DB_TIMEOUTS: DbTimeouts = {
  connectTimeoutMs: 1_000,
  statementTimeoutMs: 15_000,
  acquireTimeoutMs: 10_000,
};

/**
 * A live server answers every statement within its statement_timeout, cancelling it itself if
 * need be: no answer this much later means the server is frozen or cut off.
 */
export const UNANSWERED_GRACE_MS = 1_000;

// knex's Postgres dialect, the class `client: 'pg'` names (knex takes a subclass there too).
const PgDialect = require('knex/lib/dialects/postgres') as typeof Knex.Client;

/**
 * knex's Postgres client, except that a statement (BEGIN and COMMIT included) not answered within
 * `ms` fails with DatabaseDeadlineError and its connection is closed. A frozen or cut-off server
 * is not noticed otherwise: statement_timeout is the server's own, and the host's kernel answers
 * TCP keep-alives for a stopped process. Closed, not returned to the pool: the statement may still
 * run, so no other caller's may follow it on that session (the server rolls back on the close).
 */
function answeredWithin(ms: number): typeof Knex.Client {
  return class extends PgDialect {
    override query(connection: pg.Client & { __knex__disposed?: unknown }, obj: unknown): Promise<unknown> {
      return withDeadline(super.query(connection, obj), ms).catch((err: unknown) => {
        if (err instanceof DatabaseDeadlineError) {
          connection.__knex__disposed = err; // knex's mark: the pool destroys it, never lends it
          connection.end().catch(() => undefined); // pg drops the socket of an active statement at once
        }
        throw err;
      });
    }
  };
}

/**
 * The knex instance over pg. One pool per process; knex's own warnings go to the logger.
 * Connections have a connect timeout, a server-side statement timeout, a client-side deadline
 * UNANSWERED_GRACE_MS after it (none when the statement timeout is 0) and TCP keep-alive, so an
 * unreachable or frozen Postgres surfaces as errors (mapped to 503 at the API edge) rather than
 * requests that hang.
 */
export function createDb(url: string, poolMax = 10, logger?: Logger, timeouts: Partial<DbTimeouts> = {}): Db {
  const t = { ...DEFAULT_DB_TIMEOUTS, ...timeouts };
  const deadlineMs = t.statementTimeoutMs > 0 ? t.statementTimeoutMs + UNANSWERED_GRACE_MS : 0;
  return knexFactory({
    ...(logger && {
      log: {
        warn: (message: unknown) => logger.warn({ source: 'knex' }, String(message)),
        error: (message: unknown) => logger.error({ source: 'knex' }, String(message)),
        deprecate: (message: unknown) => logger.warn({ source: 'knex' }, String(message)),
        debug: () => {},
      },
    }),
    client: deadlineMs ? answeredWithin(deadlineMs) : 'pg',
    connection: {
      connectionString: url,
      application_name: 'payment-rescue',
      connectionTimeoutMillis: t.connectTimeoutMs,
      statement_timeout: t.statementTimeoutMs,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    },
    pool: { min: 0, max: poolMax },
    acquireConnectionTimeout: t.acquireTimeoutMs,
  });
}

/** The deadline the API edge gives one database call (bearer check, idempotency store, limits). */
export const EDGE_DEADLINE_MS = 1_500;

export class DatabaseDeadlineError extends Error {
  constructor(ms: number) {
    super(`the database did not answer within ${ms} ms`);
    this.name = 'DatabaseDeadlineError';
  }
}

/**
 * Resolves with `work` or rejects with DatabaseDeadlineError after `ms`, whichever comes first,
 * whatever the pool is doing (waiting for a slot, connecting to a frozen server). The abandoned
 * query ends on its own (knex's query timeout disposes its connection; acquisition times out).
 */
export function withDeadline<T>(work: PromiseLike<T>, ms: number = EDGE_DEADLINE_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DatabaseDeadlineError(ms)), ms);
  });
  const guarded = Promise.resolve(work);
  guarded.catch(() => undefined); // a late failure after the deadline is nobody's concern
  return Promise.race([guarded, deadline]).finally(() => clearTimeout(timer));
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * Whether an error means "the database is unavailable right now" (unreachable, restarting,
 * frozen, overloaded, timed out) rather than a bug or a bad statement: such failures are safe to
 * retry later and answer 503 with Retry-After at the API edge.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  // Duck-typed: errors from Node's sockets may come from another realm (jest), failing instanceof.
  if (typeof err !== 'object' || err === null) return false;
  const { name, code, message } = err as { name?: unknown; code?: unknown; message?: unknown };
  if (err instanceof DatabaseDeadlineError || name === 'KnexTimeoutError') return true;
  if (typeof code === 'string') {
    if (CONNECTION_CODES.has(code)) return true;
    // SQLSTATE: 08 connection exception, 53 insufficient resources, 57P01-57P05 shutdown or
    // cannot connect now, 57014 query_canceled (statement timeout).
    if (/^(08|53)/.test(code) || /^57P0[1-5]$/.test(code) || code === '57014') return true;
  }
  if (typeof message !== 'string') return false;
  return /Connection terminated|connection timeout|^timeout expired$|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout|Connection ended unexpectedly|the database system is (starting up|shutting down)/i.test(
    message,
  );
}

/** True when the database answers a trivial query within the timeout. */
export async function isDatabaseReachable(db: Db, timeoutMs = 2_000): Promise<boolean> {
  try {
    // The hard deadline covers the wait for a pool slot and a connection to a frozen server, which
    // knex's query timeout alone does not.
    await withDeadline(db.raw('select 1').timeout(timeoutMs), timeoutMs);
    return true;
  } catch {
    return false;
  }
}

/**
 * A standalone process's pool (the API's, the worker's), from its configuration: its size and
 * both timeouts (DATABASE_CONNECT_TIMEOUT_MS, DATABASE_STATEMENT_TIMEOUT_MS) on every connection.
 */
export function createConfiguredDb(database: DatabaseConfig & { url: string }, logger?: Logger): Db {
  return createDb(database.url, database.poolMax, logger, {
    connectTimeoutMs: database.connectTimeoutMs,
    statementTimeoutMs: database.statementTimeoutMs,
  });
}
