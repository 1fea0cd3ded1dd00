import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { findSensitive } from './sensitive-scan';
import { SHARED } from './shared-env';

/**
 * Stops what global-setup started, then reads every log line the API stacks of this run wrote:
 * a secret or card number in any of them fails the run.
 */
export default async function globalTeardown(): Promise<void> {
  const teardown = (globalThis as Record<string, unknown>).__prsTeardown as (() => Promise<void>) | undefined;
  await teardown?.();
  const dir = process.env[SHARED.logDir];
  if (!dir) return;
  const findings: string[] = [];
  let lines = 0;
  for (const file of await readdir(dir)) {
    const text = await readFile(path.join(dir, file), 'utf8');
    lines += text.split('\n').filter(Boolean).length;
    findings.push(...findSensitive(text).map((f) => `${file}: ${f}`));
  }
  process.stderr.write(
    `[test] scanned ${lines} log lines of this run for secrets and card numbers: ${findings.length} found\n`,
  );
  if (findings.length) throw new Error(`sensitive data in the logs of this run:\n${findings.join('\n')}`);
}
