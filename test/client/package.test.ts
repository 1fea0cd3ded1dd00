import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { packClient } from '../../clients/typescript/scripts/pack';
import { seedKey, seedMerchant } from '../helpers/fixtures';
import { startTestStack, type TestStack } from '../helpers/stack';

const run = promisify(execFile);
const root = path.join(__dirname, '../..');

/**
 * The package as a merchant installs it (README "Install"): packed into a tarball by
 * `npm run client:pack`, installed with `npm install <tarball> --offline` into a scratch project
 * (so it needs nothing a registry would have to supply), then required, imported as ESM,
 * type-checked by a consumer, and used from that project against the real stack.
 */
describe('@payment-rescue/client as a published package', () => {
  let dir: string;
  let installed: string;
  let tarball: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'client-package-'));
    tarball = await packClient(path.join(dir, 'packed'));
    const project = { name: 'merchant-backend', version: '1.0.0', private: true };
    await writeFile(path.join(dir, 'package.json'), JSON.stringify(project));
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: dir });
    installed = path.join(dir, 'node_modules/@payment-rescue/client');
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('packs as payment-rescue-client-<version>.tgz and installs from it, with nothing else', async () => {
    expect(path.basename(tarball)).toBe('payment-rescue-client-1.0.0.tgz');
    const project = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8'));
    expect(project.dependencies).toEqual({ '@payment-rescue/client': expect.stringMatching(/^file:.*\.tgz$/) });
    expect((await readdir(path.join(dir, 'node_modules'))).filter((d) => !d.startsWith('.'))).toEqual([
      '@payment-rescue',
    ]);
    const files = await readdir(installed, { recursive: true });
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
    expect(files).toEqual(expect.arrayContaining(['README.md', 'package.json', path.join('dist', 'index.js')]));
  });

  it('builds the entry points package.json names', async () => {
    const pkg = JSON.parse(await readFile(path.join(installed, 'package.json'), 'utf8'));
    expect(pkg).toMatchObject({ name: '@payment-rescue/client', version: '1.0.0', engines: { node: '>=20.3' } });
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

  describe('used from the scratch project against the real stack', () => {
    let stack: TestStack;

    beforeAll(async () => {
      stack = await startTestStack();
    });
    afterAll(async () => {
      await stack?.stop();
    });

    it('evaluates, reads and refunds an order, and reports 503002 as fall back to the decline', async () => {
      const merchant = await seedMerchant(stack.db);
      const key = await seedKey(stack.db, merchant);
      const externalOrderId = `packaged-${randomUUID()}`;
      // A merchant's own module: imports the installed package by name, credentials from the environment.
      const program = `import { PaymentRescueClient, PaymentRescueError } from '@payment-rescue/client';
const client = new PaymentRescueClient({
  baseUrl: process.env.PR_BASE_URL, clientId: process.env.PR_CLIENT_ID, clientSecret: process.env.PR_CLIENT_SECRET,
});
const declined = (cardNumber, externalOrderId) => ({
  externalOrderId, transaction: { amount: 2500, currency: 'USD', responseCode: '51' },
  paymentMethod: { cardNumber, expiryMonth: 12, expiryYear: 2030 },
});
const answer = await client.evaluate(declined('4111111111111111', process.env.ORDER_ID));
const order = await client.orders.get(answer.orderId);
const refund = await client.orders.refund(answer.orderId);
const unavailable = await client.evaluate(declined('4000000000000119', process.env.ORDER_ID + '-2')).catch((e) => e);
console.log(JSON.stringify({
  outcome: answer.outcome, orderId: answer.orderId, status: order.statusName, refunded: refund.refundedAmount,
  fallback: unavailable instanceof PaymentRescueError && unavailable.fallBackToOriginalDecline, id: unavailable.id,
}));
`;
      await writeFile(path.join(dir, 'merchant.mjs'), program);
      const { stdout } = await run(process.execPath, ['merchant.mjs'], {
        cwd: dir,
        env: {
          ...process.env,
          PR_BASE_URL: stack.baseUrl,
          PR_CLIENT_ID: key.clientId,
          PR_CLIENT_SECRET: key.clientSecret,
          ORDER_ID: externalOrderId,
        },
      });
      const result = JSON.parse(stdout);
      expect(result).toEqual({
        outcome: 'APPROVED',
        orderId: expect.any(String),
        status: 'SUCCESS',
        refunded: 2500,
        fallback: true,
        id: '503002',
      });
      const orders = await stack
        .db('orders')
        .where({ merchant_id: merchant.mid, external_order_id: externalOrderId })
        .select('id');
      expect(orders).toEqual([{ id: result.orderId }]);
    });
  });
});
