/**
 * The workflow bundles a worker runs: bundled from src/workflows (at start, in the tests, in the
 * bench) or prebuilt into the image, with tracing's workflow interceptors only when tracing is on
 * (src/observability/temporal-tracing.ts).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { type BundleOptions, bundleWorkflowCode } from '@temporalio/worker';
import { workflowInterceptorModules } from './observability/temporal-tracing';
import { activeTracing } from './observability/tracing';

/**
 * Bundles the service's workflows as a worker does: with tracing's workflow interceptors only when
 * `traced` (by default, when this process traces). The image's prebuilt bundles, the tests' and
 * the bench's are made here too, so each is the bundle some worker runs; `options` adds to it
 * (a quieter logger, the bench's own workflows module).
 */
export function bundleWorkflows(
  traced = activeTracing() !== undefined,
  options: Partial<BundleOptions> = {},
): ReturnType<typeof bundleWorkflowCode> {
  return bundleWorkflowCode({
    workflowsPath: require.resolve('./workflows'),
    workflowInterceptorModules: workflowInterceptorModules(traced),
    ...options,
  });
}

/** The prebuilt bundles' file names in dist/, with and without tracing's workflow interceptors. */
export const PREBUILT_BUNDLES = { plain: 'workflow-bundle.js', traced: 'workflow-bundle.traced.js' } as const;

/**
 * The workflow bundle prebuilt at image build (scripts/build-workflow-bundle.ts writes both beside
 * dist/src), so a worker starts without bundling and runs exactly the code the image was built
 * with: the traced one while tracing is on (its workflow interceptors), else the plain one.
 * Undefined when absent (running from source). Call it after startTracing.
 */
export function prebuiltWorkflowBundle(traced = activeTracing() !== undefined): { codePath: string } | undefined {
  const codePath = path.resolve(__dirname, '..', PREBUILT_BUNDLES[traced ? 'traced' : 'plain']);
  return existsSync(codePath) ? { codePath } : undefined;
}
