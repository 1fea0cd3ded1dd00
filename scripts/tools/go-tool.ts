import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { cacheDir, commandOutput, isExecutable, onPath, progress, runLogged } from './cache';

/** A pinned Go program the project builds once with `go install` and keeps in the tools cache. */
export interface GoTool {
  /** What progress lines call it. */
  label: string;
  /** Environment variable naming an existing binary. */
  envVar: string;
  /** Name looked up on PATH and given to the cached binary. */
  command: string;
  /** The cache directory's name before `-{version}` (the command's when absent). */
  cacheName?: string;
  /** Go module, and the package inside it when it is not the module's root. */
  module: string;
  pkg?: string;
  version: string;
  /** The oldest Go that builds it (its go.mod's `go` line). */
  minGo: readonly [number, number];
  /** Appended to the "cannot build it" line: what the caller does without it. */
  otherwise?: string;
}

export function cachedGoToolPath(tool: GoTool): string {
  return path.join(cacheDir(), `${tool.cacheName ?? tool.command}-${tool.version}`, tool.command);
}

/**
 * Finds a Go tool: its environment variable, then PATH, then the cache, then `go install` with
 * GOBIN in a staging directory renamed into the cache (never a half-built binary there).
 * Undefined when Go is missing or too old.
 */
export async function ensureGoTool(tool: GoTool): Promise<string | undefined> {
  const fromEnv = process.env[tool.envVar];
  if (fromEnv) {
    if (!isExecutable(fromEnv)) throw new Error(`${tool.envVar}=${fromEnv} is not an executable file`);
    progress(`${tool.label}: ${fromEnv} (${tool.envVar})`);
    return fromEnv;
  }
  const fromPath = onPath(tool.command);
  if (fromPath) {
    progress(`${tool.label}: ${fromPath} (PATH)`);
    return fromPath;
  }
  const cached = cachedGoToolPath(tool);
  if (isExecutable(cached)) {
    progress(`${tool.label}: ${cached} (cache)`);
    return cached;
  }
  const problem = await goProblem(tool.minGo);
  if (problem) {
    progress(
      `${tool.label}: cannot build it: ${problem}. Install Go ${tool.minGo.join('.')}+ or set ${tool.envVar}${tool.otherwise ? `; ${tool.otherwise}` : ''}.`,
    );
    return undefined;
  }
  const target = `${tool.pkg ? `${tool.module}/${tool.pkg}` : tool.module}@v${tool.version}`;
  progress(`${tool.label}: building ${target} with go install (first run only; minutes on 2 cores)...`);
  const started = Date.now();
  const dir = path.dirname(cached);
  await mkdir(path.dirname(dir), { recursive: true });
  const staging = await mkdtemp(`${dir}.building-`);
  try {
    await runLogged('nice', ['-n', '10', 'go', 'install', target], {
      env: { ...process.env, GOBIN: staging, CGO_ENABLED: '0' },
      logFile: path.join(cacheDir(), 'logs', `${tool.command}-build.log`),
    });
    // go install names the binary after the package's last element.
    await rename(path.join(staging, path.basename(tool.pkg ?? tool.module)), path.join(staging, tool.command));
    await rm(dir, { recursive: true, force: true });
    await rename(staging, dir);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  progress(`${tool.label}: built in ${Math.round((Date.now() - started) / 1000)} s -> ${cached}`);
  return cached;
}

async function goProblem(minGo: readonly [number, number]): Promise<string | undefined> {
  const out = await commandOutput('go', ['version']);
  if (!out) return 'go is not installed';
  const m = /go(\d+)\.(\d+)/.exec(out);
  if (!m) return `cannot read the Go version from "${out.trim()}"`;
  const [major, minor] = [Number(m[1]), Number(m[2])];
  if (major < minGo[0] || (major === minGo[0] && minor < minGo[1])) {
    return `Go ${major}.${minor} is too old (need ${minGo.join('.')}+)`;
  }
  return undefined;
}
