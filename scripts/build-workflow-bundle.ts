import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { WORKFLOW_INTERCEPTOR_MODULES } from '../src/observability/temporal-tracing';

/**
 * Prebuilds the workflow bundle for the production image (docker/Dockerfile): dist/workflow-bundle.js,
 * which the standalone worker (src/worker.ts, `prebuiltWorkflowBundle`) loads with
 * `workflowBundle: { codePath }` instead of bundling src/workflows at every start. The image then
 * runs exactly the workflow code it was built with. Development and tests need no such step.
 */
async function main(): Promise<void> {
  const root = path.resolve(__dirname, '..');
  const out = path.join(root, 'dist/workflow-bundle.js');
  const { code } = await bundleWorkflowCode({
    workflowsPath: path.join(root, 'src/workflows/index.ts'),
    // Tracing's workflow interceptors (src/observability/temporal-tracing.ts): in every bundle.
    workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES,
  });
  await mkdir(path.dirname(out), { recursive: true });
  await writeFile(out, code);
  process.stdout.write(
    `workflow bundle written to ${path.relative(root, out)} (${Math.round(code.length / 1024)} KiB)\n`,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`workflow bundle build failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
