import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { seedKey, seedMerchant } from '../helpers/fixtures';
import { shared } from '../helpers/shared-env';
import { startTestStack, type TestStack } from '../helpers/stack';
import { vendorVector } from '../helpers/vendor-webhook-vector';
import { startScriptedProxy } from './scripted-proxy';

const run = promisify(execFile);
const root = path.join(__dirname, '../..');
const packageDir = path.join(root, 'clients/python');
/** pip leaves these in the tree it builds from; never part of the package. */
const BUILD_LEFTOVERS = /(^|\/)(build|__pycache__|[^/]*\.egg-info)(\/|$)/;

/**
 * The Python client (clients/python) as a merchant installs it: `pip install clients/python` into a
 * fresh virtual environment (once for this file), then its own unittest suite from that
 * environment against the real stack, directly and through the scripted proxy (its HTTP
 * controls), with base URL and credentials in the environment. The orders the suite reports are
 * then counted in the database: a retried evaluate made exactly one, a call given up made none.
 */
describe('the Python client library, installed by pip, against the real stack', () => {
  let stack: TestStack;
  let proxy: Awaited<ReturnType<typeof startScriptedProxy>>;
  let dir: string;
  let python: string;
  let source: string;

  beforeAll(async () => {
    stack = await startTestStack();
    proxy = await startScriptedProxy(stack.baseUrl);
    dir = await mkdtemp(path.join(tmpdir(), 'python-client-'));
    // A copy, so pip's in-tree build leaves nothing in the repository.
    source = path.join(dir, 'source');
    await cp(packageDir, source, {
      recursive: true,
      filter: (f) => !BUILD_LEFTOVERS.test(path.relative(packageDir, f)),
    });
    await run('python3', ['-m', 'venv', path.join(dir, 'venv')]);
    python = path.join(dir, 'venv/bin/python');
    await run(python, ['-m', 'pip', 'install', '--quiet', source], { timeout: 170_000 });
  }, 180_000);
  afterAll(async () => {
    await proxy?.stop();
    await stack?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('installs with nothing beyond the standard library', async () => {
    const { stdout } = await run(python, ['-m', 'pip', 'show', 'payment-rescue-client']);
    // The release's version (package.json; test/unit/release.test.ts keeps pyproject.toml in step).
    const { version } = JSON.parse(await readFile(path.join(__dirname, '../../package.json'), 'utf8'));
    expect(stdout.split('\n')).toContain(`Version: ${version}`);
    expect(stdout).toMatch(/^Requires: *$/m);
    const probe = 'import payment_rescue as p; print(p.__file__, p.types.EvaluateAnswer.__name__)';
    const loaded = await run(python, ['-c', probe], { cwd: dir });
    expect(loaded.stdout).toMatch(
      /venv\/lib\/python3\.\d+\/site-packages\/payment_rescue\/__init__\.py EvaluateAnswer/,
    );
  });

  it('passes its own tests against the stack: token refresh, retries with one key, Retry-After, 503002, webhooks', async () => {
    const merchant = await seedMerchant(stack.db);
    const key = await seedKey(stack.db, merchant);
    const report = path.join(dir, 'orders.json');
    const env = {
      ...process.env,
      PR_BASE_URL: stack.baseUrl,
      PR_PROXY_URL: proxy.url,
      PR_CLIENT_ID: key.clientId,
      PR_CLIENT_SECRET: key.clientSecret,
      PR_TLS_CERT: shared('tlsCert'),
      PR_TLS_KEY: shared('tlsKey'),
      PR_REPORT: report,
      PR_VENDOR_VECTOR: JSON.stringify({ ...vendorVector, sentAtSeconds: vendorVector.sentAt.getTime() / 1000 }),
    };
    // From the copy's root, so `payment_rescue` is the installed one (src/ is not on the path).
    const result = await run(python, ['-m', 'unittest', 'discover', '-s', 'tests', '-t', '.', '-v'], {
      cwd: source,
      env,
      timeout: 110_000,
    }).catch((e: { stdout: string; stderr: string; code: number }) => e);
    const output = `${result.stdout}${result.stderr}`;
    if ('code' in result && result.code) throw new Error(`python tests failed:\n${output}`);
    expect(output).toMatch(/^Ran 15 tests in/m);
    expect(output).toMatch(/^OK$/m); // no "(skipped=…)": every test ran
    expect(output).not.toMatch(/skipped/);

    const expected = JSON.parse(await readFile(report, 'utf8')) as Record<string, number>;
    expect(Object.values(expected).sort()).toEqual([0, 1, 1, 1]);
    for (const [externalOrderId, count] of Object.entries(expected)) {
      const orders = await stack.db('orders').where({ merchant_id: merchant.mid, external_order_id: externalOrderId });
      expect({ externalOrderId, orders: orders.length }).toEqual({ externalOrderId, orders: count });
    }
  }, 120_000);

  it('has committed types that match the live OpenAPI document (npm run client:python:types)', async () => {
    const out = path.join(dir, 'types.py');
    const script = path.join(packageDir, 'scripts/generate_types.py');
    await run('python3', [script, '--url', `${stack.baseUrl}/v1/openapi.json`, '--out', out]);
    const committed = path.join(packageDir, 'src/payment_rescue/types.py');
    const [fresh, kept] = [(await readFile(out, 'utf8')).split('\n'), (await readFile(committed, 'utf8')).split('\n')];
    const line = fresh.findIndex((text, i) => text !== kept[i]);
    if (line >= 0 || fresh.length !== kept.length) {
      throw new Error(
        'clients/python/src/payment_rescue/types.py is stale against GET /v1/openapi.json: run ' +
          `\`npm run client:python:types\` and commit it. First difference, line ${line + 1}: ` +
          `${JSON.stringify(kept[line])} should be ${JSON.stringify(fresh[line])}`,
      );
    }
  });
});
