import { ensureStripeMock } from './stripe-mock';
import { ensureTemporalCli } from './temporal-cli';
import { ensureTemporalServer, ensureTemporalSqlTool, ensureTemporalUiServer } from './temporal-server';
import { ensureTemporalTestServer } from './temporal-test-server';

/**
 * `npm run tools`: builds or finds every tool the project needs, and says where each is. Cached
 * tools are found in milliseconds; only a missing one is built (docs/local-cluster.md for the
 * server, SQL tool and UI server of the local cluster).
 */
async function main(): Promise<void> {
  const cli = await ensureTemporalCli();
  const testServer = await ensureTemporalTestServer();
  const server = await ensureTemporalServer();
  const sqlTool = await ensureTemporalSqlTool();
  // The cluster runs without its Web UI when this one cannot be built (docs/local-cluster.md).
  await ensureTemporalUiServer();
  // The Stripe adapter's tests run against it (docs/processors.md).
  const stripeMock = await ensureStripeMock();
  if (!cli || !testServer || !server || !sqlTool || !stripeMock) process.exitCode = 1;
}

main().catch((err: unknown) => {
  process.stderr.write(`[tools] ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
