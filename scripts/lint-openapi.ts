/**
 * Lints the OpenAPI document with Redocly's rules (`recommended`, the ruleset of `redocly lint`)
 * through @redocly/openapi-core, the engine and Node API of Redocly CLI.
 *
 *   npm run openapi:lint          # prints each problem; exits 1 on any error
 *   npm run openapi:lint -- --json  # { errors, warnings, problems } (test/unit/openapi-lint.test.ts)
 *
 * A script rather than an import in jest: the package is ESM-only, which jest's CommonJS sandbox
 * cannot load.
 */
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { buildOpenApiDocument } from '../src/api/openapi/document';

async function main(): Promise<void> {
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({
    source: JSON.stringify(buildOpenApiDocument(), null, 2),
    absoluteRef: 'openapi.json',
    config,
  });
  const listed = problems.map((p) => ({
    severity: p.severity,
    rule: p.ruleId,
    message: p.message,
    where: p.location.map((l) => l.pointer).join(', '),
  }));
  const errors = listed.filter((p) => p.severity === 'error').length;
  const warnings = listed.filter((p) => p.severity === 'warn').length;
  if (process.argv.includes('--json')) {
    process.stdout.write(JSON.stringify({ errors, warnings, problems: listed }));
  } else {
    const lines = listed.map((p) => `${p.severity} ${p.rule} ${p.where}: ${p.message}`);
    process.stdout.write(`${[...lines, `${errors} error(s), ${warnings} warning(s)`].join('\n')}\n`);
  }
  process.exitCode = errors > 0 ? 1 : 0;
}

void main();
