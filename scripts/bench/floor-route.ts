import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import { type Client, WithStartWorkflowOperation } from '@temporalio/client';
import { benchFloorWorkflow, floorUpdate } from './floor-workflow';

export const FLOOR_PATH = '/bench/floor';

/**
 * POST /bench/floor: an Update-With-Start of the trivial floor workflow on the order task queue,
 * mounted behind the API's own middleware (request id, access log, errors, JSON body) but without
 * authentication or idempotency: what evaluate costs beyond this is ours, not Temporal's.
 */
export function floorRoutes(client: Client, taskQueue: string): ReturnType<Router['routes']> {
  const router = new Router();
  router.post(FLOOR_PATH, async (ctx) => {
    const start = new WithStartWorkflowOperation(benchFloorWorkflow, {
      workflowId: `bench-floor-${randomUUID()}`,
      taskQueue,
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
    const outcome = await client.workflow.executeUpdateWithStart(floorUpdate, { startWorkflowOperation: start });
    ctx.body = { outcome };
  });
  return router.routes();
}
