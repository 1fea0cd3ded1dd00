import { z } from 'zod';
import { type EnvOf, optionalUrl, port } from './env';

/** Postgres: an external one by URL, or the embedded one under DATA_DIR. */

export const databaseEnv = {
  DATABASE_URL: optionalUrl.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
  ),
  DATABASE_LISTEN_URL: optionalUrl.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
  ),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(1_000),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(15_000),
  EMBEDDED_POSTGRES_PORT: port.default(54320),
};

export interface DatabaseConfig {
  /** Undefined means "start the embedded Postgres under dataDir". */
  url: string | undefined;
  /** The API's cache listener's own session (docs/deployment.md): set when DATABASE_URL is a transaction pooler. */
  listenUrl: string | undefined;
  poolMax: number;
  embeddedPort: number;
  /** A new connection must be ready within this; statements are cancelled by Postgres after the other. */
  connectTimeoutMs: number;
  statementTimeoutMs: number;
}

export function databaseSettings(e: EnvOf<typeof databaseEnv>): DatabaseConfig {
  return {
    url: e.DATABASE_URL,
    listenUrl: e.DATABASE_LISTEN_URL,
    poolMax: e.DATABASE_POOL_MAX,
    embeddedPort: e.EMBEDDED_POSTGRES_PORT,
    connectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS,
    statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
  };
}
