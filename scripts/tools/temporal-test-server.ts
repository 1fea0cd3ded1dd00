import { chmod, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { cacheDir, commandOutput, isExecutable, onPath, progress, runLogged } from './cache';

/**
 * The Java time-skipping test server (io.temporal:temporal-test-server on Maven Central), pinned
 * in tools/temporal-test-server/pom.xml. Its jars are copied into the cache by Maven and started
 * by a launcher script that `exec`s java: the SDK passes only the port, runs the executable
 * without a shell and kills only its direct child.
 */
export const TEST_SERVER_VERSION = '1.38.0';
const POM = path.resolve(__dirname, '../../tools/temporal-test-server/pom.xml');

export function cachedTestServerPath(): string {
  return path.join(cacheDir(), `temporal-test-server-${TEST_SERVER_VERSION}`, 'temporal-test-server');
}

// Serial GC and C1-only JIT: the server answers in about 1.2 s on 2 cores (the SDK waits ~5 s).
const LAUNCHER = `#!/bin/sh
# Temporal time-skipping test server ${TEST_SERVER_VERSION}; the SDK passes the port as the only argument.
dir=$(cd "$(dirname "$0")" && pwd)
exec "\${JAVA_HOME:+$JAVA_HOME/bin/}java" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto \\
  -cp "$dir/lib/*" io.temporal.testserver.TestServer "$@"
`;

/**
 * Finds the test server: TEMPORAL_TEST_SERVER_PATH, then PATH (temporal-test-server), then the
 * cache, then fetches it with Maven. Undefined when none works (the SDK's download is the last
 * resort).
 */
export async function ensureTemporalTestServer(): Promise<string | undefined> {
  const fromEnv = process.env.TEMPORAL_TEST_SERVER_PATH;
  if (fromEnv) {
    if (!isExecutable(fromEnv)) throw new Error(`TEMPORAL_TEST_SERVER_PATH=${fromEnv} is not an executable file`);
    progress(`Temporal test server: ${fromEnv} (TEMPORAL_TEST_SERVER_PATH)`);
    return fromEnv;
  }
  const fromPath = onPath('temporal-test-server');
  if (fromPath) {
    progress(`Temporal test server: ${fromPath} (PATH)`);
    return fromPath;
  }
  const cached = cachedTestServerPath();
  if (isExecutable(cached)) {
    progress(`Temporal test server: ${cached} (cache)`);
    return cached;
  }
  const missing = [];
  if (!(await commandOutput('java', ['-version']))) missing.push('java (17+)');
  if (!(await commandOutput('mvn', ['-v']))) missing.push('mvn');
  if (missing.length) {
    progress(
      `Temporal test server: cannot fetch it: ${missing.join(' and ')} missing. Install them or set TEMPORAL_TEST_SERVER_PATH; falling back to the SDK's download.`,
    );
    return undefined;
  }
  progress(`Temporal test server: fetching ${TEST_SERVER_VERSION} from Maven Central (first run only)...`);
  const started = Date.now();
  const target = path.dirname(cached);
  await mkdir(path.dirname(target), { recursive: true });
  const staging = await mkdtemp(`${target}.building-`);
  try {
    await runLogged(
      'mvn',
      [
        '-q',
        '-B',
        '-f',
        POM,
        'dependency:copy-dependencies',
        `-DoutputDirectory=${path.join(staging, 'lib')}`,
        '-DincludeScope=runtime',
      ],
      { logFile: path.join(cacheDir(), 'logs', 'temporal-test-server-build.log') },
    );
    await writeFile(path.join(staging, 'temporal-test-server'), LAUNCHER);
    await chmod(path.join(staging, 'temporal-test-server'), 0o755);
    await rm(target, { recursive: true, force: true });
    await rename(staging, target);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  progress(`Temporal test server: ready in ${Math.round((Date.now() - started) / 1000)} s -> ${cached}`);
  return cached;
}
