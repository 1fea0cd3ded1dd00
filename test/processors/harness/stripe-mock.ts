import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { requireStripeMock } from '../../../scripts/tools/stripe-mock';

export interface StripeMock {
  /** e.g. http://127.0.0.1:40123 */
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts stripe-mock (scripts/tools/stripe-mock.ts) on ports the OS picks, and answers once it
 * says where it listens. Its output is read for that line only: stripe-mock prints request data,
 * card numbers included, so nothing of it is kept or logged.
 */
export async function startStripeMock(timeoutMs = 30_000): Promise<StripeMock> {
  const binary = await requireStripeMock();
  const child: ChildProcess = spawn(binary, ['-http-addr', '127.0.0.1:', '-https-addr', '127.0.0.1:'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error('stripe-mock did not say where it listens in time')), timeoutMs);
    const onData = (chunk: Buffer) => {
      seen = `${seen}${chunk}`.slice(-4096);
      const m = /Listening for HTTP at address: (\S+)/.exec(seen);
      if (m) {
        clearTimeout(timer);
        resolve(`http://${m[1]}`);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`stripe-mock exited (${code}) before listening`));
    });
  });
  // Keep draining its output so it never blocks on a full pipe; the data is dropped.
  child.stdout?.removeAllListeners('data').resume();
  child.stderr?.removeAllListeners('data').resume();
  return {
    url,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
