import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { cacheDir, commandOutput, isExecutable, onPath, progress, runLogged } from './cache';

/**
 * The Temporal server and its SQL schema tool, for the local cluster on Postgres
 * (`npm run start:cluster`, `npm run test:cluster`, docs/local-cluster.md). Both come from the
 * server's Go module at one pinned version, so the schema the tool applies is the one the server
 * expects. v1.29.1 installs cleanly with `go install` (no `replace` directive in its go.mod).
 */
export const TEMPORAL_SERVER_VERSION = '1.29.1';
const MODULE = 'go.temporal.io/server';
const MIN_GO = [1, 25] as const; // the server's go.mod: `go 1.25.0`

interface GoTool {
  /** What progress lines call it. */
  label: string;
  /** Environment variable naming an existing binary. */
  envVar: string;
  /** Name looked up on PATH and given to the cached binary (the names of Temporal's images). */
  command: string;
  /** Go module and the package inside it; `go install` names the binary after its last element. */
  module: string;
  pkg: string;
  version: string;
}

const SERVER: GoTool = {
  label: 'Temporal server',
  envVar: 'TEMPORAL_SERVER_PATH',
  command: 'temporal-server',
  module: MODULE,
  pkg: 'cmd/server',
  version: TEMPORAL_SERVER_VERSION,
};
const SQL_TOOL: GoTool = {
  label: 'Temporal SQL tool',
  envVar: 'TEMPORAL_SQL_TOOL_PATH',
  command: 'temporal-sql-tool',
  module: MODULE,
  pkg: 'cmd/tools/sql',
  version: TEMPORAL_SERVER_VERSION,
};

/**
 * The Web UI server: the release the pinned CLI (v1.5.1) embeds in `temporal server start-dev`,
 * built on its own (its UI assets are embedded in the Go module) and pointed at the cluster.
 */
export const TEMPORAL_UI_SERVER_VERSION = '2.42.1';
const UI_SERVER: GoTool = {
  label: 'Temporal UI server',
  envVar: 'TEMPORAL_UI_SERVER_PATH',
  command: 'temporal-ui-server',
  module: 'github.com/temporalio/ui-server/v2',
  pkg: 'cmd/server',
  version: TEMPORAL_UI_SERVER_VERSION,
};

function cachedPath(tool: GoTool): string {
  return path.join(cacheDir(), `${tool.command}-${tool.version}`, tool.command);
}

/** Finds or builds `temporal-server` (TEMPORAL_SERVER_PATH, PATH, the cache, `go install`). */
export function ensureTemporalServer(): Promise<string | undefined> {
  return ensureGoTool(SERVER);
}

/** Finds or builds `temporal-sql-tool` (TEMPORAL_SQL_TOOL_PATH, PATH, the cache, `go install`). */
export function ensureTemporalSqlTool(): Promise<string | undefined> {
  return ensureGoTool(SQL_TOOL);
}

/** Finds or builds `temporal-ui-server` (TEMPORAL_UI_SERVER_PATH, PATH, the cache, `go install`). */
export function ensureTemporalUiServer(): Promise<string | undefined> {
  return ensureGoTool(UI_SERVER);
}

/** Both, or an error saying what is missing and how to provide it. */
export async function requireTemporalServerTools(): Promise<{ server: string; sqlTool: string }> {
  const server = await ensureTemporalServer();
  const sqlTool = await ensureTemporalSqlTool();
  if (!server || !sqlTool) {
    throw new Error(
      `the local cluster needs the Temporal server and SQL tool v${TEMPORAL_SERVER_VERSION}: install Go ${MIN_GO.join('.')}+ (npm run tools builds them) or set TEMPORAL_SERVER_PATH and TEMPORAL_SQL_TOOL_PATH`,
    );
  }
  return { server, sqlTool };
}

/**
 * The discovery order of the CLI (scripts/tools/temporal-cli.ts): the env var, PATH, the cache,
 * then `go install` with GOBIN in a staging directory renamed into the cache (never a half-built
 * binary there). Undefined when Go is missing or too old.
 */
async function ensureGoTool(tool: GoTool): Promise<string | undefined> {
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
  const cached = cachedPath(tool);
  if (isExecutable(cached)) {
    progress(`${tool.label}: ${cached} (cache)`);
    return cached;
  }
  const problem = await goProblem();
  if (problem) {
    progress(`${tool.label}: cannot build it: ${problem}. Install Go ${MIN_GO.join('.')}+ or set ${tool.envVar}.`);
    return undefined;
  }
  const target = `${tool.module}/${tool.pkg}@v${tool.version}`;
  progress(`${tool.label}: building ${target} with go install (first run only; several minutes on 2 cores)...`);
  const started = Date.now();
  const dir = path.dirname(cached);
  await mkdir(path.dirname(dir), { recursive: true });
  const staging = await mkdtemp(`${dir}.building-`);
  try {
    await runLogged('nice', ['-n', '10', 'go', 'install', target], {
      env: { ...process.env, GOBIN: staging, CGO_ENABLED: '0' },
      logFile: path.join(cacheDir(), 'logs', `${tool.command}-build.log`),
    });
    await rename(path.join(staging, path.basename(tool.pkg)), path.join(staging, tool.command));
    await rm(dir, { recursive: true, force: true });
    await rename(staging, dir);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  progress(`${tool.label}: built in ${Math.round((Date.now() - started) / 1000)} s -> ${cached}`);
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
