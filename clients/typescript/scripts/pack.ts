/**
 * Packs @payment-rescue/client into a tarball a merchant installs with
 * `npm install ./dist/payment-rescue-client-<version>.tgz` (README "Install"). It builds `dist/`
 * with the package's own tsconfig first (the repository's TypeScript), then runs `npm pack` with
 * `--ignore-scripts`: the package's `prepack` would need its own devDependencies installed.
 *
 *   npm run client:pack                    # writes dist/payment-rescue-client-<version>.tgz
 *   npm run client:pack -- --out <folder>  # elsewhere (test/client/package.test.ts)
 */
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const packageDir = path.join(__dirname, '..');
const root = path.join(packageDir, '..', '..');

/** Builds the package and packs it into `destination`; answers the tarball's path. */
export async function packClient(destination: string): Promise<string> {
  await run(path.join(root, 'node_modules/.bin/tsc'), ['-p', path.join(packageDir, 'tsconfig.json')]);
  await mkdir(destination, { recursive: true });
  const { stdout } = await run(
    'npm',
    ['pack', packageDir, '--ignore-scripts', '--json', '--pack-destination', destination],
    { cwd: root },
  );
  const [packed] = JSON.parse(stdout) as Array<{ filename: string }>;
  if (!packed) throw new Error('npm pack answered no tarball');
  return path.join(destination, packed.filename);
}

if (require.main === module) {
  const at = process.argv.indexOf('--out');
  const destination = path.resolve(at >= 0 ? (process.argv[at + 1] ?? 'dist') : path.join(root, 'dist'));
  packClient(destination).then(
    (tarball) => process.stdout.write(`${path.relative(process.cwd(), tarball)}\n`),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
