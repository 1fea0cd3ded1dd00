import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The merchant-side webhook verifiers of docs/webhook-verifiers/<lang>/, each a small program:
 * `<program> secret=… host=… [tolerance=<s>] [now=<Unix s>] x-fc-…=…`, raw body on stdin, prints
 * `ok` or `fail`. Compiled languages are compiled once per run into a temporary directory.
 */
export const VERIFIERS_DIR = path.resolve(__dirname, '../../docs/webhook-verifiers');

export interface VerifierCase {
  body: string | Buffer;
  headers: Record<string, string>;
  secretBase64: string;
  host: string;
  /** Seconds; 0 disables the x-fc-date check; absent: the program's default (300). */
  toleranceSeconds?: number;
  /** The verifier's clock; absent: the real clock. */
  now?: Date;
}

interface Language {
  language: string;
  /** The file, relative to VERIFIERS_DIR, shown in docs/webhooks.md with this code fence. */
  file: string;
  fence: string;
  /** Commands that must be on PATH, and the Debian package that provides them (.ci/run). */
  tools: string[];
  debian: string;
  build?: (src: string, out: string) => string[][];
  command: (src: string, out: string) => string[];
}

export const LANGUAGES: Language[] = [
  {
    language: 'Node',
    file: 'node/verify.js',
    fence: 'js',
    tools: [],
    debian: 'nodejs',
    command: (src) => [process.execPath, src],
  },
  {
    language: 'Python',
    file: 'python/verify.py',
    fence: 'python',
    tools: ['python3'],
    debian: 'python3',
    command: (src) => ['python3', src],
  },
  {
    language: 'Ruby',
    file: 'ruby/verify.rb',
    fence: 'ruby',
    tools: ['ruby'],
    debian: 'ruby',
    command: (src) => ['ruby', src],
  },
  {
    language: 'PHP',
    file: 'php/verify.php',
    fence: 'php',
    tools: ['php'],
    debian: 'php-cli',
    command: (src) => ['php', src],
  },
  {
    language: 'Go',
    file: 'go/verify.go',
    fence: 'go',
    tools: ['go'],
    debian: 'golang-go',
    build: (src, out) => [['go', 'build', '-o', path.join(out, 'go-verify'), src]],
    command: (_src, out) => [path.join(out, 'go-verify')],
  },
  {
    language: 'Java',
    file: 'java/Verify.java',
    fence: 'java',
    tools: ['javac', 'java'],
    debian: 'openjdk-17-jdk-headless',
    build: (src, out) => [['javac', '-d', out, src]],
    command: (_src, out) => ['java', '-XX:TieredStopAtLevel=1', '-cp', out, 'Verify'],
  },
  {
    language: 'C#',
    file: 'csharp/Verify.cs',
    fence: 'csharp',
    tools: ['mcs', 'mono'],
    debian: 'mono-mcs',
    build: (src, out) => [['mcs', '-nologo', `-out:${path.join(out, 'Verify.exe')}`, src]],
    command: (_src, out) => ['mono', path.join(out, 'Verify.exe')],
  },
];

const onPath = (tool: string) => spawnSync('sh', ['-c', `command -v "${tool}"`]).status === 0;

/** The tools a language lacks on this machine (none: it can be tested). */
export function missingTools(lang: Language): string[] {
  return lang.tools.filter((t) => !onPath(t));
}

function run(
  argv: string[],
  input?: string | Buffer,
  cwd?: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const [cmd, ...args] = argv;
    const child = spawn(cmd ?? '', args, { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

/** At most `limit` programs at once (2 shared cores; JVM and Mono starts are not free). */
function limiter(limit: number) {
  let active = 0;
  const queue: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active >= limit) await new Promise<void>((resolve) => queue.push(resolve));
    active++;
    try {
      return await task();
    } finally {
      active--;
      queue.shift()?.();
    }
  };
}

export interface PreparedVerifier {
  language: string;
  /** Runs the program on one case: its verdict, `ok` or `fail`. */
  verify(c: VerifierCase): Promise<'ok' | 'fail'>;
}

/** Compiles what needs compiling (once, in parallel) and returns a runner per available language. */
export async function prepareVerifiers(languages: Language[]) {
  const out = mkdtempSync(path.join(tmpdir(), 'webhook-verifiers-'));
  const limit = limiter(4);
  const prepared = await Promise.all(
    languages.map(async (lang): Promise<PreparedVerifier> => {
      const src = path.join(VERIFIERS_DIR, lang.file);
      for (const step of lang.build?.(src, out) ?? []) {
        const built = await run(step, undefined, path.dirname(src));
        if (built.code !== 0) throw new Error(`${lang.language}: ${step.join(' ')} failed:\n${built.stderr}`);
      }
      const command = lang.command(src, out);
      return {
        language: lang.language,
        verify: (c) =>
          limit(async () => {
            const args = [`secret=${c.secretBase64}`, `host=${c.host}`];
            if (c.toleranceSeconds !== undefined) args.push(`tolerance=${c.toleranceSeconds}`);
            if (c.now) args.push(`now=${Math.floor(c.now.getTime() / 1000)}`);
            for (const [name, value] of Object.entries(c.headers)) {
              if (name.startsWith('x-fc-')) args.push(`${name}=${value}`);
            }
            const r = await run([...command, ...args], c.body);
            const verdict = r.stdout.trim();
            if (r.code !== 0 || (verdict !== 'ok' && verdict !== 'fail')) {
              throw new Error(`${lang.language} verifier: exit ${r.code}, stdout ${r.stdout}, stderr ${r.stderr}`);
            }
            return verdict;
          }),
      };
    }),
  );
  return { prepared, cleanup: () => rmSync(out, { recursive: true, force: true }) };
}
