import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

export type ServiceKind = 'worker' | 'api';

const ENTRY: Record<ServiceKind, { file: string; ready: string }> = {
  // The standalone entries production runs (docker/, deploy/): each logs one line once serving.
  worker: { file: 'src/worker.ts', ready: '"worker running"' },
  api: { file: 'src/api/server.ts', ready: '"API listening"' },
};

export interface ManagedProcessOptions {
  kind: ServiceKind;
  /** e.g. `worker-1`: names its log file and its lines in the launcher's output. */
  name: string;
  env: NodeJS.ProcessEnv;
  logFile: string;
  /** Restart it (after 1 s, then backing off to 10 s) when it dies without being asked to. */
  autoRestart?: boolean;
  say?: (line: string) => void;
  startTimeoutMs?: number;
  /** Also copy its output to this process's stdout and stderr (`npm start` shows the logs). */
  echo?: boolean;
  /** The source tree the entry runs from (default: this repository); e.g. a changed copy as another build. */
  root?: string;
  /** Started once this answers true (asked every 250 ms), or once it logs its ready line. */
  ready?: (pid: number) => Promise<boolean>;
}

/**
 * One API or worker process (`node --import tsx <entry>`), as a supervisor (Kubernetes, systemd)
 * would run it: `start` resolves once it logs that it serves, `kill` sends a signal and waits for
 * the exit, `stop` is a graceful SIGTERM (SIGKILL after 30 s).
 */
export class ManagedProcess {
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private stopping = false;
  private backoffMs = 1_000;
  private readonly log: WriteStream;
  starts = 0;

  constructor(private readonly opts: ManagedProcessOptions) {
    this.log = createWriteStream(opts.logFile, { flags: 'a' });
  }

  get name(): string {
    return this.opts.name;
  }

  get pid(): number | undefined {
    return this.child?.exitCode === null && this.child.signalCode === null ? this.child.pid : undefined;
  }

  async start(): Promise<void> {
    this.stopping = false;
    const entry = ENTRY[this.opts.kind];
    const child = spawn(process.execPath, ['--import', 'tsx', entry.file], {
      cwd: this.opts.root ?? ROOT,
      env: this.opts.env,
      // The channel closes when this process dies, even by SIGKILL: the child then stops itself
      // (src/stop-with-parent.ts) rather than run on with no one to stop it.
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    this.child = child;
    this.starts += 1;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    child.stderr?.pipe(this.log, { end: false });
    // The last of its output, both streams, for the error if it dies before serving: a test's
    // run directory (and its logs) may be gone by the time anyone reads the message.
    let recent = '';
    const keep = (d: Buffer) => {
      recent = (recent + String(d)).slice(-2_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    if (this.opts.echo) {
      child.stdout?.on('data', (d: Buffer) => process.stdout.write(d));
      child.stderr?.on('data', (d: Buffer) => process.stderr.write(d));
    }
    const timeoutMs = this.opts.startTimeoutMs ?? 120_000;
    await new Promise<void>((resolve, reject) => {
      let seen = '';
      let probe: NodeJS.Timeout | undefined;
      const timer = setTimeout(() => {
        clearInterval(probe);
        reject(new Error(`${this.name} did not start within ${timeoutMs} ms; see ${this.opts.logFile}`));
      }, timeoutMs);
      const started = () => {
        clearTimeout(timer);
        clearInterval(probe);
        resolve();
      };
      const ready = this.opts.ready;
      if (ready && child.pid !== undefined) {
        const pid = child.pid;
        probe = setInterval(() => {
          ready(pid).then(
            (ok) => ok && started(),
            () => {},
          );
        }, 250);
      }
      const onData = (d: Buffer) => {
        this.log.write(d);
        seen = (seen + String(d)).slice(-4096);
        if (seen.includes(entry.ready)) started();
      };
      child.stdout?.on('data', onData);
      // 'close', not 'exit': by then its output has been read to the end.
      child.once('close', (code, signal) => {
        clearTimeout(timer);
        clearInterval(probe);
        const tail = recent.trim().split('\n').slice(-5).join('\n');
        reject(new Error(`${this.name} exited at start (${signal ?? code}); ${this.opts.logFile} ends:\n${tail}`));
      });
    });
    this.backoffMs = 1_000;
    child.once('exit', (code, signal) => {
      if (this.stopping || this.child !== child) return;
      this.opts.say?.(`${this.name} (pid ${child.pid}) exited (${signal ?? code})`);
      if (this.opts.autoRestart) this.restartLater();
    });
  }

  /**
   * Starts it as a supervisor restarts a crashed process: a start that fails (say, Temporal not
   * answering within the connect timeout on a saturated machine) is tried again after the
   * backoff, until `withinMs`. Each failed start is reported through `say`.
   */
  async startRetrying(withinMs: number): Promise<void> {
    const deadline = Date.now() + withinMs;
    for (let delay = 1_000; ; delay = Math.min(delay * 2, 10_000)) {
      try {
        return await this.start();
      } catch (err) {
        if (Date.now() + delay > deadline) throw err;
        this.opts.say?.(`${this.name}: ${err instanceof Error ? err.message : String(err)}; starting again`);
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  }

  private restartLater(): void {
    const delay = this.backoffMs;
    this.backoffMs = Math.min(this.backoffMs * 2, 10_000);
    setTimeout(() => {
      if (this.stopping) return;
      this.start().then(
        () => this.opts.say?.(`${this.name} restarted (pid ${this.pid})`),
        (err: unknown) => {
          this.opts.say?.(`${this.name}: ${err instanceof Error ? err.message : String(err)}`);
          if (!this.stopping) this.restartLater();
        },
      );
    }, delay).unref();
  }

  /** Sends `signal` (SIGKILL: no drain) and waits for the exit. No automatic restart follows. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    await this.exited;
  }

  /** Graceful: SIGTERM (the API drains its requests, the worker its tasks), SIGKILL after 30 s. */
  async stop(): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await this.exited;
      clearTimeout(timer);
    }
    await new Promise((r) => this.log.end(r));
  }
}
