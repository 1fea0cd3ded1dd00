import type { VersioningBehavior, WorkerDeploymentVersion } from '@temporalio/common';
import type { WorkerDeploymentOptions } from '@temporalio/worker';

/**
 * Worker Versioning (docs/deployment.md, "Versioned workers"): a worker started with
 * WORKER_DEPLOYMENT_NAME and WORKER_BUILD_ID polls as that deployment version, and the server
 * sends it only the workflows of its version, so a workflow change ships as a new build rather
 * than a patch where the workflows can stay on the build they started on.
 *
 * The default behaviour is per task queue (each worker polls one):
 * - orders: PINNED. An order (and its refunds and reconciliations, on the same queue) lives for
 *   weeks on timers; pinned, it finishes on the code it started with, and the old build drains.
 * - webhooks: AUTO_UPGRADE. An endpoint's delivery workflow is a thin driver (the schedule lives in
 *   Postgres) that continues-as-new and may never end while its endpoint gets traffic: pinned, it
 *   would keep an old build alive for good. It moves to the current build on its next task, so a
 *   change to it still needs a patch (docs/changing-workflows.md).
 */
export const DEFAULT_VERSIONING_BEHAVIOR = {
  orders: 'PINNED',
  webhooks: 'AUTO_UPGRADE',
} as const satisfies Record<'orders' | 'webhooks', VersioningBehavior>;

/** The worker's deployment options for a role; undefined (unversioned) without a version. */
export function workerDeploymentOptions(
  version: WorkerDeploymentVersion | undefined,
  role: keyof typeof DEFAULT_VERSIONING_BEHAVIOR,
): WorkerDeploymentOptions | undefined {
  if (!version) return undefined;
  return { version, useWorkerVersioning: true, defaultVersioningBehavior: DEFAULT_VERSIONING_BEHAVIOR[role] };
}
