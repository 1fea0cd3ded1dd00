import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildWidgetSource } from '../src/api/widget-bundle';

/**
 * Prebuilds the widget for the production image (docker/Dockerfile), which has neither esbuild
 * nor the widget source: dist/widget/fc.js, read by src/api/widget-bundle.ts at first use.
 * Development and tests need no such step: the service bundles src/widget itself.
 */
async function main(): Promise<void> {
  const root = path.resolve(__dirname, '..');
  const out = path.join(root, 'dist/widget/fc.js');
  await mkdir(path.dirname(out), { recursive: true });
  await writeFile(out, await buildWidgetSource(path.join(root, 'src/widget/index.ts')));
  process.stdout.write(`widget bundle written to ${path.relative(root, out)}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`widget build failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
