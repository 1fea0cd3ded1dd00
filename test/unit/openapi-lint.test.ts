import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * The OpenAPI document passes Redocly's `recommended` rules with no error (warnings are listed by
 * `npm run openapi:lint`). The linter is ESM-only, so it runs in a child process
 * (scripts/lint-openapi.ts), on the document the code builds.
 */
describe('the OpenAPI document under Redocly lint', () => {
  it('has no error', async () => {
    const root = path.resolve(__dirname, '../..');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'scripts/lint-openapi.ts', '--json'],
      { cwd: root, maxBuffer: 16 * 1024 * 1024 },
    ).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
    const result = JSON.parse(stdout) as { errors: number; problems: Array<{ severity: string }> };
    expect(result.problems.filter((p) => p.severity === 'error')).toEqual([]);
    expect(result.errors).toBe(0);
  }, 60_000);
});
