import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

/**
 * `npm run test:model -- --runs 5000 [--seed N --path P]`: the order workflow's model test
 * (test/workflows/order-model.test.ts) with as many random command sequences as asked, run by
 * jest (which provisions the test server and Postgres). Prints how many sequences ran and how
 * many diverged from the model; a divergence prints fast-check's counterexample, with the seed and
 * path that replay it (`--seed` and `--path`). Exits non-zero on a divergence (docs/orders.md).
 */
async function main(): Promise<number> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: { runs: { type: 'string', default: '5000' }, seed: { type: 'string' }, path: { type: 'string' } },
  });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) {
    process.stderr.write('--runs takes a positive whole number\n');
    return 2;
  }
  const dir = await mkdtemp(join(tmpdir(), 'model-test-'));
  const report = join(dir, 'report.json');
  try {
    const env = {
      ...process.env,
      MODEL_TEST_RUNS: String(runs),
      MODEL_TEST_REPORT: report,
      ...(values.seed ? { MODEL_TEST_SEED: values.seed } : {}),
      ...(values.path ? { MODEL_TEST_PATH: values.path } : {}),
    };
    const jest = ['scripts/with-local-tls.ts', 'node_modules/jest/bin/jest.js', 'test/workflows/order-model.test.ts'];
    const child = spawn(process.execPath, ['--import', 'tsx', ...jest], { stdio: 'inherit', env });
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
    const code = await new Promise<number>((resolve) =>
      child.on('exit', (exit, signal) => resolve(exit ?? (signal ? 1 : 0))),
    );
    const result = JSON.parse(await readFile(report, 'utf8').catch(() => 'null')) as {
      sequences: number;
      divergences: number;
      seed: number;
      path: string | null;
      counterexample: string | null;
    } | null;
    if (!result) {
      process.stdout.write(`model test: no result (jest exited ${code})\n`);
      return code || 1;
    }
    process.stdout.write(
      `model test: ${result.sequences} sequences, ${result.divergences} divergences (seed ${result.seed})\n`,
    );
    if (result.divergences)
      process.stdout.write(
        `counterexample: ${result.counterexample}\nreplay: npm run test:model -- --seed=${result.seed} --path=${result.path}\n`,
      );
    return code;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`model-test: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
