import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { cacheDir, commandOutput, isExecutable, onPath, progress, runLogged } from './cache';

/**
 * The Temporal CLI gives the dev server and its Web UI. Pinned: from v1.6.0 the CLI's go.mod
 * carries a `replace` directive, so `go install` of later versions fails.
 */
export const TEMPORAL_CLI_VERSION = '1.5.1';
const MODULE = 'github.com/temporalio/cli/cmd/temporal';
const MIN_GO = [1, 25] as const;

export function cachedTemporalCliPath(): string {
  return path.join(cacheDir(), `temporal-cli-${TEMPORAL_CLI_VERSION}`, 'temporal');
}

/**
 * Finds the Temporal CLI: TEMPORAL_CLI_PATH, then PATH, then the cache, then builds it with
 * `go install`. Returns undefined when none of these works, so the caller can fall back to the
 * SDK's own download (which works for users on the open internet).
 */
export async function ensureTemporalCli(): Promise<string | undefined> {
  const fromEnv = process.env.TEMPORAL_CLI_PATH;
  if (fromEnv) {
    if (!isExecutable(fromEnv)) throw new Error(`TEMPORAL_CLI_PATH=${fromEnv} is not an executable file`);
    progress(`Temporal CLI: ${fromEnv} (TEMPORAL_CLI_PATH)`);
    return fromEnv;
  }
  const fromPath = onPath('temporal');
  if (fromPath) {
    progress(`Temporal CLI: ${fromPath} (PATH)`);
    return fromPath;
  }
  const cached = cachedTemporalCliPath();
  if (isExecutable(cached)) {
    progress(`Temporal CLI: ${cached} (cache)`);
    return cached;
  }
  const problem = await goProblem();
  if (problem) {
    progress(
      `Temporal CLI: cannot build it: ${problem}. Install Go ${MIN_GO.join('.')}+ or set TEMPORAL_CLI_PATH; falling back to the SDK's download.`,
    );
    return undefined;
  }
  progress(`Temporal CLI: building v${TEMPORAL_CLI_VERSION} with go install (first run only, a few minutes)...`);
  const started = Date.now();
  const target = path.dirname(cached);
  await mkdir(path.dirname(target), { recursive: true });
  const staging = await mkdtemp(`${target}.building-`);
  try {
    await runLogged('go', ['install', `${MODULE}@v${TEMPORAL_CLI_VERSION}`], {
      env: { ...process.env, GOBIN: staging, CGO_ENABLED: '0' },
      logFile: path.join(cacheDir(), 'logs', 'temporal-cli-build.log'),
    });
    await rm(target, { recursive: true, force: true });
    await rename(staging, target); // atomic: the cache never holds a half-built binary
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  progress(`Temporal CLI: built in ${Math.round((Date.now() - started) / 1000)} s -> ${cached}`);
  return cached;
}

async function goProblem(): Promise<string | undefined> {
  const out = await commandOutput('go', ['version']);
  if (!out) return 'go is not installed';
  const m = /go(\d+)\.(\d+)/.exec(out);
  if (!m) return `cannot read the Go version from "${out.trim()}"`;
  const [major, minor] = [Number(m[1]), Number(m[2])];
  if (major < MIN_GO[0] || (major === MIN_GO[0] && minor < MIN_GO[1])) {
    return `Go ${major}.${minor} is too old (need ${MIN_GO.join('.')}+)`;
  }
  return undefined;
}
