import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * `npm run lock:platforms`, after any `npm install` that changes package-lock.json.
 *
 * The registry mirror of our build machines does not serve some platform-specific optional
 * packages (darwin, win32, musl, android... builds of biome, @swc/core and jest's resolver), so
 * npm leaves them out of the lockfile, and `npm ci` then rejects the lockfile as out of sync.
 * This adds the entries npm writes on the open registry: name, version, optional, and the
 * os/cpu/libc that make every installer skip them on other platforms. No download address is
 * written (the project's npm config omits them anyway).
 */

type Entry = {
  version?: string;
  dev?: boolean;
  optional?: boolean;
  optionalDependencies?: Record<string, string>;
  os?: string[];
  cpu?: string[];
  libc?: string[];
};

const OS = ['darwin', 'win32', 'linux', 'android', 'freebsd', 'openharmony', 'sunos', 'netbsd', 'openbsd', 'aix'];
const CPU: Array<[RegExp, string]> = [
  [/-(arm64|aarch64)(-|$)/, 'arm64'],
  [/-x64(-|$)/, 'x64'],
  [/-ia32(-|$)/, 'ia32'],
  [/-arm(-|$)/, 'arm'],
  [/-ppc64(le)?(-|$)/, 'ppc64'],
  [/-s390x(-|$)/, 's390x'],
  [/-riscv64(-|$)/, 'riscv64'],
  [/-loong64(-|$)/, 'loong64'],
];

export function platformOf(name: string): Pick<Entry, 'os' | 'cpu' | 'libc'> {
  const base = name.split('/').pop() ?? name;
  const os = OS.find((o) => base.includes(`-${o}-`) || base.startsWith(`${o}-`));
  const cpu = CPU.find(([re]) => re.test(base))?.[1];
  const libc = /-musl/.test(base) ? ['musl'] : os === 'linux' && /-gnu/.test(base) ? ['glibc'] : undefined;
  return { ...(os && { os: [os] }), ...(cpu && { cpu: [cpu] }), ...(libc && { libc }) };
}

function main(): void {
  const file = path.resolve(__dirname, '../package-lock.json');
  const lock = JSON.parse(readFileSync(file, 'utf8')) as { packages: Record<string, Entry> };
  const added: string[] = [];
  for (const [key, entry] of Object.entries(lock.packages)) {
    for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
      const at = `node_modules/${dep}`;
      if (lock.packages[at]) continue;
      const platform = platformOf(dep);
      if (!platform.os && !platform.cpu) continue; // not a platform package: leave it to npm
      lock.packages[at] = { version, ...(entry.dev && { dev: true }), optional: true, ...platform };
      added.push(`${dep}@${version} (from ${key || 'root'})`);
    }
  }
  lock.packages = Object.fromEntries(
    Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
  );
  writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
  process.stdout.write(
    added.length ? `added ${added.length} platform entries:\n  ${added.join('\n  ')}\n` : 'lockfile complete\n',
  );
}

if (require.main === module) main();
