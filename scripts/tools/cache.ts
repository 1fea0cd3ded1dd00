import { spawn } from 'node:child_process';
import { accessSync, constants, createWriteStream } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * The user-level cache where tools built once (the Temporal CLI, the Java test server) are kept,
 * so clean clones and CI runs reuse them: $XDG_CACHE_HOME/payment-rescue-service, by default
 * ~/.cache/payment-rescue-service.
 */
export function cacheDir(): string {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'payment-rescue-service');
}

export function progress(message: string): void {
  process.stderr.write(`[tools] ${message}\n`);
}

export function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable named `command` on PATH. */
export function onPath(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, command);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/** Runs a command, its output going to `logFile`; on failure the error carries the log's tail. */
export async function runLogged(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; logFile: string },
): Promise<void> {
  await mkdir(path.dirname(options.logFile), { recursive: true });
  const log = createWriteStream(options.logFile);
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    child.on('error', reject);
    child.on('close', resolve);
  });
  await new Promise((r) => log.end(r));
  if (code !== 0) {
    const tail = (await readFile(options.logFile, 'utf8')).split('\n').slice(-25).join('\n');
    throw new Error(`${command} ${args.join(' ')} failed (exit ${code}); log: ${options.logFile}\n${tail}`);
  }
}

/** Output of a short command, or undefined when it cannot run. */
export async function commandOutput(command: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', () => resolve(undefined));
    child.on('close', (code) => resolve(code === 0 ? out : undefined));
  });
}
