import { ensureTemporalCli } from './temporal-cli';
import { ensureTemporalTestServer } from './temporal-test-server';

/** `npm run tools`: builds or finds every tool the project needs, and says where each is. */
async function main(): Promise<void> {
  const cli = await ensureTemporalCli();
  const testServer = await ensureTemporalTestServer();
  if (!cli || !testServer) process.exitCode = 1;
}

main().catch((err: unknown) => {
  process.stderr.write(`[tools] ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
