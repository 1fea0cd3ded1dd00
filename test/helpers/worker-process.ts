import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { eventually } from './eventually';
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

/**
 * The API as production runs it: its own process (src/api/server.ts) on the stack's database and
 * task queue, listening on `port`, resolved once `/v1/health/live` answers. Its output is appended
 * to `output`.
 */
export async function startApiProcess(
  stack: TestStack,
  output: string[],
  port: number,
  env: Record<string, string> = {},
): Promise<{ process: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/api/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: stack.databaseUrl,
      TEMPORAL_ADDRESS: stack.temporalAddress,
      TEMPORAL_TASK_QUEUE: stack.taskQueue,
      HOST: '127.0.0.1',
      PORT: String(port),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => output.push(String(d)));
  child.stderr?.on('data', (d) => output.push(String(d)));
  const url = `http://127.0.0.1:${port}`;
  await eventually(
    () =>
      fetch(`${url}/v1/health/live`).then(
        (r) => r.status,
        () => 0,
      ),
    (status) => status === 200,
    { describe: () => `the API process to listen; its output:\n${output.join('')}`, timeoutMs: 60_000 },
  );
  return { process: child, url };
}

/** SIGTERM (the API drains), and wait until the process is gone. */
export async function stopApiProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}
