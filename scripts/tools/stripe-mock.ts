import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { cacheDir, commandOutput, isExecutable, onPath, progress, runLogged } from './cache';

/**
 * stripe-mock, Stripe's official API mock (a Go program), for the Stripe adapter's tests
 * (docs/processors.md). Pinned: v0.203.0 installs cleanly with `go install` (its go.mod has no
 * `replace` directive) and bundles an OpenAPI spec the stripe package of package.json speaks.
 */
export const STRIPE_MOCK_VERSION = '0.203.0';
const MODULE = 'github.com/stripe/stripe-mock';
const MIN_GO = [1, 22] as const; // stripe-mock's go.mod: `go 1.22.1`

export function cachedStripeMockPath(): string {
  return path.join(cacheDir(), `stripe-mock-${STRIPE_MOCK_VERSION}`, 'stripe-mock');
}

/**
 * Finds stripe-mock as the Temporal tools are found: STRIPE_MOCK_PATH, then PATH, then the
 * cache, then `go install` into a staging directory renamed into the cache (never a half-built
 * binary there). Undefined when Go is missing or too old.
 */
export async function ensureStripeMock(): Promise<string | undefined> {
  const fromEnv = process.env.STRIPE_MOCK_PATH;
  if (fromEnv) {
    if (!isExecutable(fromEnv)) throw new Error(`STRIPE_MOCK_PATH=${fromEnv} is not an executable file`);
    progress(`stripe-mock: ${fromEnv} (STRIPE_MOCK_PATH)`);
    return fromEnv;
  }
  const fromPath = onPath('stripe-mock');
  if (fromPath) {
    progress(`stripe-mock: ${fromPath} (PATH)`);
    return fromPath;
  }
  const cached = cachedStripeMockPath();
  if (isExecutable(cached)) {
    progress(`stripe-mock: ${cached} (cache)`);
    return cached;
  }
  const problem = await goProblem();
  if (problem) {
    progress(`stripe-mock: cannot build it: ${problem}. Install Go ${MIN_GO.join('.')}+ or set STRIPE_MOCK_PATH.`);
    return undefined;
  }
  progress(`stripe-mock: building v${STRIPE_MOCK_VERSION} with go install (first run only)...`);
  const started = Date.now();
  const target = path.dirname(cached);
  await mkdir(path.dirname(target), { recursive: true });
  const staging = await mkdtemp(`${target}.building-`);
  try {
    await runLogged('go', ['install', `${MODULE}@v${STRIPE_MOCK_VERSION}`], {
      env: { ...process.env, GOBIN: staging, CGO_ENABLED: '0' },
      logFile: path.join(cacheDir(), 'logs', 'stripe-mock-build.log'),
    });
    await rm(target, { recursive: true, force: true });
    await rename(staging, target);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  progress(`stripe-mock: built in ${Math.round((Date.now() - started) / 1000)} s -> ${cached}`);
  return cached;
}

/** The binary, or an error saying how to provide it (for the tests that need it). */
export async function requireStripeMock(): Promise<string> {
  const found = await ensureStripeMock();
  if (!found)
    throw new Error(
      `stripe-mock v${STRIPE_MOCK_VERSION} is missing: run npm run tools (needs Go) or set STRIPE_MOCK_PATH`,
    );
  return found;
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
