import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { bundleWorkflows, PREBUILT_BUNDLES } from '../src/workflow-bundles';

/**
 * Prebuilds the workflow bundles for the production image (docker/Dockerfile): dist/workflow-bundle.js
 * and, with tracing's workflow interceptors, dist/workflow-bundle.traced.js. The standalone worker
 * (src/worker.ts, `prebuiltWorkflowBundle`) loads the one its tracing calls for with
 * `workflowBundle: { codePath }` instead of bundling src/workflows at every start. The image then
 * runs exactly the workflow code it was built with. Development and tests need no such step.
 */
async function main(): Promise<void> {
  const root = path.resolve(__dirname, '..');
  for (const traced of [false, true]) {
    const out = path.join(root, 'dist', PREBUILT_BUNDLES[traced ? 'traced' : 'plain']);
    const { code } = await bundleWorkflows(traced);
    await mkdir(path.dirname(out), { recursive: true });
    await writeFile(out, code);
    process.stdout.write(
      `workflow bundle written to ${path.relative(root, out)} (${Math.round(code.length / 1024)} KiB)\n`,
    );
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`workflow bundle build failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
