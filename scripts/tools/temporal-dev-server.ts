import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { waitForTemporal } from '../../src/temporal/connect';

export interface DevServerHandle {
  address: string;
  uiUrl: string | undefined;
  stop(): Promise<void>;
}

export interface DevServerOptions {
  cliPath: string;
  port: number;
  /** Web UI port; undefined runs headless. */
  uiPort?: number;
  namespace: string;
  /** SQLite file for persistent state; undefined keeps everything in memory. */
  dbFile?: string;
  logFile: string;
  /** More `--dynamic-config-value key=value` settings (the benchmarks try settings with it). */
  dynamicConfig?: string[];
}

/**
 * Server settings for low latency on one machine (docs/benchmarks.md): one task-queue partition
 * (the default four spread one queue's tasks and pollers, which halved a trivial workflow's
 * throughput and gave it a 2-second p99 in issue 14's probe), and eager activity dispatch, so an
 * activity a workflow task schedules on the worker's own queue comes back with the task's answer
 * instead of through another poll (the order workflow's processor calls are ordinary activities).
 * And the history shard's transfer-queue reads: the default 20 per second per shard made every
 * task handed to matching (a new run's first workflow task, an activity, the task after an
 * activity) wait up to 50 ms for the next read, which capped one caller at 20 req/s; the host-wide
 * read limit (a share of the persistence rate) still guards the database. And the matcher that
 * honours task priority and fairness (off by default on this server version): a checkout goes
 * ahead of a backlog of MIT retries, and merchants take turns (src/temporal/task-priority.ts).
 */
export const LOW_LATENCY = [
  'matching.numTaskqueueReadPartitions=1',
  'matching.numTaskqueueWritePartitions=1',
  'system.enableActivityEagerExecution=true',
  'history.transferProcessorMaxPollRPS=1000',
  'matching.useNewMatcher=true',
  'matching.enableFairness=true',
];

/** Starts `temporal server start-dev` as a child process and waits until it answers. */
export async function startTemporalDevServer(opts: DevServerOptions): Promise<DevServerHandle> {
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(opts.port),
    '--namespace',
    opts.namespace,
    '--log-level',
    'warn',
    '--log-format',
    'json',
    ...[...LOW_LATENCY, ...(opts.dynamicConfig ?? [])].flatMap((setting) => ['--dynamic-config-value', setting]),
  ];
  if (opts.uiPort !== undefined) args.push('--ui-port', String(opts.uiPort));
  else args.push('--headless');
  if (opts.dbFile) {
    await mkdir(path.dirname(opts.dbFile), { recursive: true });
    args.push('--db-filename', opts.dbFile);
  }
  await mkdir(path.dirname(opts.logFile), { recursive: true });
  const log = createWriteStream(opts.logFile, { flags: 'a' });
  const child = spawn(opts.cliPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const address = `127.0.0.1:${opts.port}`;
  try {
    await Promise.race([
      waitForTemporal(address, 60_000),
      exited.then(() => {
        throw new Error(`the Temporal dev server exited at start (port ${opts.port} in use?); see ${opts.logFile}`);
      }),
    ]);
  } catch (err) {
    await stopChild(child, exited);
    throw err;
  }
  return {
    address,
    uiUrl: opts.uiPort !== undefined ? `http://127.0.0.1:${opts.uiPort}` : undefined,
    stop: () => stopChild(child, exited),
  };
}

/** SIGTERM, then SIGKILL after 10 s: the dev server flushes its SQLite state on SIGTERM. */
async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
