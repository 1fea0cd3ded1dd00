import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import type { TestStack } from './stack';

const ROOT = path.resolve(__dirname, '../..');

/**
 * The worker as production runs it: its own process (src/worker.ts) on the stack's database and
 * task queue, resolved once it polls. Tests kill it with SIGKILL (no graceful drain) to show that
 * everything durable survives. Its output is appended to `output` for the whole-run log scan.
 */
export function startWorkerProcess(
  stack: TestStack,
  output: string[],
  databaseUrl = stack.databaseUrl,
  /** More environment for the worker, e.g. the processor's (STRIPE_SECRET_KEY, STRIPE_API_BASE). */
  env: Record<string, string> = {},
): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: stack.temporalAddress,
      TEMPORAL_TASK_QUEUE: stack.taskQueue,
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start:\n${output.join('')}`)), 60_000);
    child.stdout?.on('data', (d: Buffer) => {
      output.push(String(d));
      if (String(d).includes('"worker running"')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.stderr?.on('data', (d) => output.push(String(d)));
    child.once('exit', (code) => reject(new Error(`worker exited (${code}):\n${output.join('')}`)));
  });
}

/** SIGKILL, and wait until the process is gone. */
export async function killWorker(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}
