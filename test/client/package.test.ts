import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = path.join(__dirname, '../..');
const packageDir = path.join(root, 'clients/typescript');

/**
 * The package as a merchant installs it: built with its own tsconfig (npm run client:build), laid
 * out under node_modules/@payment-rescue/client, then required, imported as ESM and type-checked
 * by a consumer. Its built code needs nothing beyond Node's own modules.
 */
describe('@payment-rescue/client as a published package', () => {
  let dir: string;
  let installed: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'client-package-'));
    installed = path.join(dir, 'node_modules/@payment-rescue/client');
    await mkdir(installed, { recursive: true });
    await cp(path.join(packageDir, 'package.json'), path.join(installed, 'package.json'));
    await cp(path.join(packageDir, 'README.md'), path.join(installed, 'README.md'));
    const tsc = path.join(root, 'node_modules/.bin/tsc');
    await run(tsc, ['-p', path.join(packageDir, 'tsconfig.json'), '--outDir', path.join(installed, 'dist')]);
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('builds the entry points package.json names', async () => {
    const pkg = JSON.parse(await readFile(path.join(installed, 'package.json'), 'utf8'));
    expect(pkg).toMatchObject({ name: '@payment-rescue/client', version: '0.1.0', engines: { node: '>=20.3' } });
    expect(pkg.dependencies ?? {}).toEqual({});
    for (const file of [pkg.main, pkg.types, pkg.exports['.'].types, pkg.exports['.'].default]) {
      await expect(readFile(path.join(installed, file), 'utf8')).resolves.toMatch(/\S/);
    }
  });

  it('needs only Node built-ins at run time', async () => {
    const files = (await readdir(path.join(installed, 'dist'), { recursive: true })).filter((f) => f.endsWith('.js'));
    expect(files).toEqual(expect.arrayContaining(['index.js', 'client.js', 'webhooks.js']));
    for (const file of files) {
      const source = await readFile(path.join(installed, 'dist', file), 'utf8');
      const required = [...source.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1] ?? '');
      expect(required.filter((r) => !r.startsWith('./') && !r.startsWith('node:'))).toEqual([]);
    }
  });

  it('loads by require and by import, from its name', async () => {
    const probe = 'typeof m.PaymentRescueClient + typeof m.webhooks.verify + typeof m.PaymentRescueError';
    const cjs = await run(
      process.execPath,
      ['-e', `const m = require('@payment-rescue/client'); console.log(${probe})`],
      {
        cwd: dir,
      },
    );
    expect(cjs.stdout.trim()).toBe('functionfunctionfunction');
    const esm = await run(
      process.execPath,
      ['--input-type=module', '-e', `import * as m from '@payment-rescue/client'; console.log(${probe})`],
      { cwd: dir },
    );
    expect(esm.stdout.trim()).toBe('functionfunctionfunction');
  });

  it('type-checks a consumer against its declarations, and refuses a wrong call', async () => {
    const consumer = `import { PaymentRescueClient, PaymentRescueError, webhooks, type EvaluateAnswer } from '@payment-rescue/client';
const client = new PaymentRescueClient({ baseUrl: 'http://127.0.0.1:3000', clientId: 'id', clientSecret: 'secret' });
export async function first(): Promise<EvaluateAnswer['outcome'] | boolean> {
  try {
    const answer = await client.evaluate({ transaction: { amount: 2500, currency: 'USD' }, paymentMethod: { cardNumber: '4111111111111111' } });
    return answer.outcome;
  } catch (error) {
    if (error instanceof PaymentRescueError && error.fallBackToOriginalDecline) return false;
    throw error;
  }
}
export const ok: boolean = webhooks.verify({ body: '', headers: {}, host: 'shop.example', secrets: ['a', 'b'] });
const input = { body: '', headers: {}, host: 'shop.example', secrets: 'a' };
export const refunded: number | undefined = ((e) => (e.Event === 'order.refunded' ? e.EventData.Amount : undefined))(webhooks.parse(input));
`;
    const tsconfig = {
      compilerOptions: {
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        strict: true,
        noEmit: true,
      },
      files: ['consumer.ts'],
    };
    await writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
    await writeFile(path.join(dir, 'consumer.ts'), consumer);
    // @types/node from the repository, as a consumer's own would be.
    await cp(path.join(root, 'node_modules/@types/node'), path.join(dir, 'node_modules/@types/node'), {
      recursive: true,
    });
    await cp(path.join(root, 'node_modules/undici-types'), path.join(dir, 'node_modules/undici-types'), {
      recursive: true,
    });
    const tsc = path.join(root, 'node_modules/.bin/tsc');
    await expect(run(tsc, ['-p', dir])).resolves.toBeDefined();

    await writeFile(path.join(dir, 'consumer.ts'), `${consumer}client.evaluate({ transaction: { amount: '25' } });\n`);
    const failed = await run(tsc, ['-p', dir]).catch((e: { stdout: string }) => e);
    expect((failed as { stdout: string }).stdout).toMatch(/consumer\.ts.*error TS/);
  });
});
