import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../scripts/cluster/free-ports';
import { eventually } from '../helpers/eventually';
import { descendantsOf, type ProcessEntry, processTable, stillRunning } from '../helpers/process-table';

const ROOT = path.resolve(__dirname, '../..');

/** How a stop is asked for: as a terminal or a process manager signals the whole group, or npm alone. */
const KINDS = [
  { name: 'group SIGTERM', send: (npm: number) => process.kill(-npm, 'SIGTERM') },
  { name: 'group SIGINT (Ctrl-C)', send: (npm: number) => process.kill(-npm, 'SIGINT') },
  { name: 'SIGTERM to npm alone', send: (npm: number) => process.kill(npm, 'SIGTERM') },
] as const;

/** The order scripts/start.ts stops in: the API before the worker it needs, Postgres last. */
const STOP_ORDER = [
  '[start] stopping api process',
  '[start] stopping worker process',
  '[start] stopping Temporal dev server',
  '[start] stopping embedded Postgres',
  '[start] stopped',
];

interface Run {
  npm: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

/**
 * `npm start` started and stopped `cycles` times by each kind of stop (scripts/run-until-signalled.ts),
 * on one data directory (later starts reuse Postgres's cluster and Temporal's state). After each
 * stop: npm exited 0; nothing is left of its process group, of the stack's session, or of the
 * processes it had (walked through /proc before the stop); Postgres refuses connections and its
 * postmaster.pid is gone; the stop went in order; no error or stack trace was printed. Then once
 * more with the launcher SIGKILLed: the stack notices and stops all the same.
 */
export function describeStopCycles(cycles: number): void {
  describe(`npm start stopped ${cycles} times by each kind of stop`, () => {
    jest.setTimeout(180_000); // a start bundles the workflows: 20 to 30 s on a busy machine
    let dataDir: string;
    let env: NodeJS.ProcessEnv;
    const runs: Run[] = [];

    beforeAll(async () => {
      dataDir = await mkdtemp(path.join(os.tmpdir(), 'prs-stops-'));
      await chmod(dataDir, 0o755); // as root, Postgres runs as the postgres user and must reach its cluster
      env = {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: String(await freePort()),
        EMBEDDED_POSTGRES_PORT: String(await freePort()),
        TEMPORAL_DEV_SERVER_PORT: String(await freePort()),
        TEMPORAL_UI_PORT: String(await freePort()),
        DATABASE_URL: '',
        TEMPORAL_ADDRESS: '',
      };
    });
    afterAll(async () => {
      for (const run of runs) {
        if (run.npm.exitCode === null && run.npm.signalCode === null) {
          run.npm.kill('SIGTERM');
          await run.exited;
        }
      }
      await rm(dataDir, { recursive: true, force: true });
    });

    /** npm start as a terminal runs it: the leader of a process group of its own. */
    function npmStart(): Run {
      const npm = spawn('npm', ['start'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      const output: string[] = [];
      npm.stdout?.on('data', (d) => output.push(String(d)));
      npm.stderr?.on('data', (d) => output.push(String(d)));
      const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
      const run = { npm, output, exited };
      runs.push(run);
      return run;
    }

    async function untilReady(run: Run): Promise<void> {
      await eventually(
        async () => {
          if (run.npm.exitCode !== null) throw new Error(`npm start exited early:\n${run.output.join('')}`);
          return (await fetch(`http://127.0.0.1:${env.PORT}/v1/health/ready`).catch(() => undefined))?.status;
        },
        (status) => status === 200,
        { describe: () => `a ready npm start; it said:\n${run.output.join('')}`, timeoutMs: 120_000, intervalMs: 250 },
      );
    }

    /** The launcher (npm's child) and the stack it runs in a session of its own (its child). */
    function launcherAndStack(npmPid: number): { launcher: ProcessEntry; stack: ProcessEntry } {
      const table = processTable();
      const isStart = (p: ProcessEntry) => p.command.includes('scripts/start.ts');
      const launcher = table.find((p) => p.ppid === npmPid && isStart(p));
      const stack = launcher && table.find((p) => p.ppid === launcher.pid && isStart(p));
      if (!launcher || !stack) throw new Error(`no launcher and stack under npm ${npmPid}`);
      return { launcher, stack };
    }

    /** Whatever of npm start is still there: by group, by the stack's session, by the processes it had. */
    function leftOf(npmPid: number, stack: ProcessEntry, had: ProcessEntry[]): string[] {
      const table = processTable();
      const live = table.filter((p) => p.state !== 'Z');
      return [
        ...live.filter((p) => p.pgrp === npmPid).map((p) => `group ${npmPid}: ${p.pid} ${p.command}`),
        ...live.filter((p) => p.session === stack.pid).map((p) => `session ${stack.pid}: ${p.pid} ${p.command}`),
        ...stillRunning(had, table).map((p) => `descendant: ${p.pid} ${p.command}`),
      ];
    }

    async function postgresPortRefuses(): Promise<boolean> {
      return new Promise((resolve) => {
        const socket = net.connect(Number(env.EMBEDDED_POSTGRES_PORT), '127.0.0.1');
        socket.once('connect', () => {
          socket.destroy();
          resolve(false);
        });
        socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
      });
    }

    async function expectAllStopped(npmPid: number, stack: ProcessEntry, had: ProcessEntry[], run: Run) {
      await eventually(
        () => leftOf(npmPid, stack, had),
        (left) => left.length === 0,
        { describe: 'no process of npm start left (last value: those left)', timeoutMs: 10_000, intervalMs: 200 },
      );
      expect(await postgresPortRefuses()).toBe(true);
      expect(existsSync(path.join(dataDir, 'postgres', 'cluster', 'postmaster.pid'))).toBe(false);
      const output = run.output.join('');
      // No error, and no stack trace ("    at f (file:1:2)"): an ordinary stop is quiet.
      expect(output.split('\n').filter((line) => /Error|^\s+at \S/.test(line))).toEqual([]);
      return output;
    }

    const cases = KINDS.flatMap((kind) => Array.from({ length: cycles }, (_, i) => [kind.name, i + 1, kind] as const));
    it.each(cases)('%s, cycle %d: leaves no process, Postgres stopped, no error printed', async (_, _cycle, kind) => {
      const run = npmStart();
      const npmPid = run.npm.pid as number;
      await untilReady(run);
      const { stack } = launcherAndStack(npmPid);
      const had = descendantsOf(npmPid);
      // npm, launcher, stack, Postgres (and its own processes), Temporal, worker, API at least.
      expect(had.length).toBeGreaterThanOrEqual(7);

      kind.send(npmPid);
      expect(await run.exited).toBe(0);
      const output = await expectAllStopped(npmPid, stack, had, run);
      const positions = STOP_ORDER.map((line) => output.indexOf(line));
      expect(positions.every((at, i) => at >= 0 && (i === 0 || at > (positions[i - 1] as number)))).toBe(true);
    });

    it('the launcher SIGKILLed: the stack sees its channel close and stops everything in order all the same', async () => {
      const run = npmStart();
      const npmPid = run.npm.pid as number;
      await untilReady(run);
      const { launcher, stack } = launcherAndStack(npmPid);
      const had = descendantsOf(npmPid);

      process.kill(launcher.pid, 'SIGKILL');
      await run.exited;
      // The stack writes to npm's pipes, which this test still reads, until it has stopped.
      await eventually(
        () => run.output.join(''),
        (output) => output.includes('[start] stopped'),
        { describe: () => `the stack to stop; it said:\n${run.output.join('')}`, timeoutMs: 60_000, intervalMs: 200 },
      );
      const output = await expectAllStopped(npmPid, stack, had, run);
      expect(output.indexOf('[start] stopping worker process')).toBeLessThan(
        output.indexOf('[start] stopping embedded Postgres'),
      );
    });
  });
}
