import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { findSensitive } from '../helpers/sensitive-scan';

/**
 * Stops the Postgres of global-setup, scans the logs the clusters' API and worker processes wrote
 * for secrets and card numbers (any fails the run), and removes the work directory.
 */
export default async function globalTeardown(): Promise<void> {
  const teardown = (globalThis as Record<string, unknown>).__prsClusterTeardown as (() => Promise<void>) | undefined;
  await teardown?.();
  const dir = process.env.PRS_CLUSTER_TEST_DIR;
  if (!dir) return;
  const findings: string[] = [];
  let lines = 0;
  // Each test file's cluster has its own directory (cluster/, versioning/), logs/ in it.
  for (const cluster of await readdir(dir).catch(() => [] as string[])) {
    const logDir = path.join(dir, cluster, 'logs');
    for (const file of await readdir(logDir).catch(() => [] as string[])) {
      const text = await readFile(path.join(logDir, file), 'utf8');
      lines += text.split('\n').filter(Boolean).length;
      findings.push(...findSensitive(text).map((f) => `${cluster}/${file}: ${f}`));
    }
  }
  process.stderr.write(
    `[cluster-test] scanned ${lines} log lines of the cluster's processes: ${findings.length} secrets or card numbers found\n`,
  );
  if (findings.length) throw new Error(`sensitive data in the cluster's logs:\n${findings.join('\n')}`);
  if (!process.env.PRS_KEEP_CLUSTER_DIR) await rm(dir, { recursive: true, force: true });
}
