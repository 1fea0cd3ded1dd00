import { chmod, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../scripts/cluster/free-ports';
import { createLocalTls } from '../../scripts/tools/local-tls';
import { ensureTemporalCli } from '../../scripts/tools/temporal-cli';
import { startTemporalDevServer } from '../../scripts/tools/temporal-dev-server';
import { ensureTemporalTestServer } from '../../scripts/tools/temporal-test-server';
import { startEmbeddedPostgres } from '../../src/db/embedded-postgres';
import { createDb } from '../../src/db/knex';
import { migrateToLatest } from '../../src/db/migrate';
import { connectTemporalClient } from '../../src/temporal/connect';
import { registerSearchAttributes } from '../../src/temporal/search-attributes';
import { bundleWorkflows } from '../../src/workflow-bundles';
import { quietBundlerLogger } from './bundler-logger';
import { SHARED } from './shared-env';

export const TEMPLATE_DATABASE = 'prs_template';

/**
 * Starts, once per jest run: a throw-away embedded Postgres holding a migrated template
 * database, a headless in-memory Temporal dev server with the search attributes registered, and
 * one workflow bundle shared by every worker the tests create. The time-skipping test server is
 * provisioned here and started per test file (it answers in about a second).
 */
export default async function globalSetup(): Promise<void> {
  const started = Date.now();
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'prs-test-'));
  await chmod(workDir, 0o755); // as root, Postgres runs as the postgres user and must reach its cluster
  const [cliPath, testServerPath] = [await ensureTemporalCli(), await ensureTemporalTestServer()];
  if (testServerPath) process.env[SHARED.testServerPath] = testServerPath;

  const [pg, temporal, bundle] = await Promise.all([
    (async () => {
      const pg = await startEmbeddedPostgres({
        directory: path.join(workDir, 'postgres'),
        port: await freePort(),
        database: TEMPLATE_DATABASE,
        unsafeFast: true,
      });
      const db = createDb(pg.url, 2);
      await migrateToLatest(db);
      await db.destroy();
      return pg;
    })(),
    (async () => {
      const port = await freePort();
      if (!cliPath) {
        const { TestWorkflowEnvironment } = await import('@temporalio/testing');
        const env = await TestWorkflowEnvironment.createLocal({ server: { ip: '127.0.0.1', port } });
        return { address: env.address, stop: () => env.teardown() };
      }
      return startTemporalDevServer({
        cliPath,
        port,
        namespace: 'default',
        logFile: path.join(workDir, 'temporal.log'),
      });
    })(),
    bundleWorkflows(false, { logger: quietBundlerLogger }), // as a worker bundles with tracing off
  ]);

  const { connection } = await connectTemporalClient(temporal.address, 'default');
  await registerSearchAttributes(connection, 'default');
  await connection.close();

  const bundlePath = path.join(workDir, 'workflow-bundle.js');
  await writeFile(bundlePath, bundle.code);

  const admin = new URL(pg.url);
  admin.pathname = '/postgres';
  process.env[SHARED.pgAdminUrl] = admin.toString();
  process.env[SHARED.templateDatabase] = TEMPLATE_DATABASE;
  process.env[SHARED.temporalAddress] = temporal.address;
  process.env[SHARED.workflowBundle] = bundlePath;
  process.env[SHARED.logDir] = await mkdtemp(path.join(workDir, 'logs-'));
  // `npm test` (scripts/with-local-tls.ts) provides the certificate before jest starts; a bare
  // `npx jest` gets one here, trusted only by worker processes started after this point.
  if (!process.env[SHARED.tlsCert]) await trustLocalTls();
  (globalThis as Record<string, unknown>).__prsTeardown = async () => {
    await temporal.stop();
    await pg.stop();
  };
  process.stderr.write(
    `\n[test] shared infrastructure ready in ${((Date.now() - started) / 1000).toFixed(1)} s (${workDir})\n`,
  );
}

/**
 * A self-signed certificate for 127.0.0.1 and localhost, for the tests' local HTTPS servers (the
 * merchants' webhook receivers). Trusted the Node way: NODE_EXTRA_CA_CERTS is read when a process
 * starts, and jest's workers start after this.
 */
async function trustLocalTls(): Promise<void> {
  const { cert, key } = await createLocalTls();
  process.env[SHARED.tlsCert] = cert;
  process.env[SHARED.tlsKey] = key;
  process.env.NODE_EXTRA_CA_CERTS = cert;
}
