import { readFileSync } from 'node:fs';
import path from 'node:path';
import { platformOf } from '../../scripts/lockfile-platforms';

describe('package-lock.json works with npm ci on every platform', () => {
  it('has an entry for every optional dependency (run `npm run lock:platforms` after npm install)', () => {
    const lock = JSON.parse(readFileSync(path.resolve(__dirname, '../../package-lock.json'), 'utf8'));
    const missing: string[] = [];
    for (const entry of Object.values(lock.packages) as Array<{ optionalDependencies?: Record<string, string> }>) {
      for (const dep of Object.keys(entry.optionalDependencies ?? {})) {
        if (!lock.packages[`node_modules/${dep}`]) missing.push(dep);
      }
    }
    expect(missing).toEqual([]);
  });

  it('derives os, cpu and libc from platform package names', () => {
    expect(platformOf('@biomejs/cli-darwin-arm64')).toEqual({ os: ['darwin'], cpu: ['arm64'] });
    expect(platformOf('@biomejs/cli-linux-x64-musl')).toEqual({ os: ['linux'], cpu: ['x64'], libc: ['musl'] });
    expect(platformOf('@swc/core-linux-arm-gnueabihf')).toEqual({ os: ['linux'], cpu: ['arm'], libc: ['glibc'] });
    expect(platformOf('@swc/core-win32-ia32-msvc')).toEqual({ os: ['win32'], cpu: ['ia32'] });
    expect(platformOf('@unrs/resolver-binding-linux-ppc64-gnu')).toEqual({
      os: ['linux'],
      cpu: ['ppc64'],
      libc: ['glibc'],
    });
    expect(platformOf('left-pad')).toEqual({});
  });
});
