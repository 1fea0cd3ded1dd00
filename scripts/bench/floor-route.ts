import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import { type Client, WithStartWorkflowOperation } from '@temporalio/client';
import { orderStartSearchAttributes } from '../../src/workflows/search-attributes';
import type { FloorActivities } from './floor-workflow';
import {
  benchFloorChargeRecordedWorkflow,
  benchFloorChargeWorkflow,
  benchFloorOpenWorkflow,
  benchFloorRecordedWorkflow,
  benchFloorWorkflow,
  floorUpdate,
} from './floor-workflow';

export const FLOOR_PATH = '/bench/floor';
/** The floor of a CIT evaluate's shape (benchFloorChargeWorkflow). */
export const FLOOR_CHARGE_PATH = '/bench/floor-charge';
/** Temporal's part of a CIT evaluate's shipped shape (benchFloorChargeRecordedWorkflow). */
export const FLOOR_CHARGE_RECORDED_PATH = '/bench/floor-charge-recorded';
/** The floor of an async MIT evaluate's shape (benchFloorOpenWorkflow). */
export const FLOOR_OPEN_PATH = '/bench/floor-open';
/** Temporal's part of an async MIT evaluate's shipped shape (benchFloorRecordedWorkflow). */
export const FLOOR_RECORDED_PATH = '/bench/floor-recorded';

/** The charge floor's activity, registered on the bench's worker beside the service's own. */
export const floorActivities: FloorActivities = {
  benchFloorCharge: async () => 'CHARGED',
  benchFloorRecord: async () => {},
};

/** Each floor's path, workflow, and the flow of the order it stands for (it starts with its search attributes). */
const FLOORS = [
  { path: FLOOR_PATH, workflow: benchFloorWorkflow, asOrder: null },
  { path: FLOOR_CHARGE_PATH, workflow: benchFloorChargeWorkflow, asOrder: null },
  { path: FLOOR_CHARGE_RECORDED_PATH, workflow: benchFloorChargeRecordedWorkflow, asOrder: 'CIT' },
  { path: FLOOR_OPEN_PATH, workflow: benchFloorOpenWorkflow, asOrder: null },
  { path: FLOOR_RECORDED_PATH, workflow: benchFloorRecordedWorkflow, asOrder: 'ASYNC_MIT' },
] as const;

/** The attributes an order workflow starts with, for a floor that stands for one. */
function asOrderAttributes(id: string, flow: 'CIT' | 'ASYNC_MIT') {
  return orderStartSearchAttributes({
    merchantId: 'bench',
    externalOrderId: `bench-${id}`,
    orderId: id,
    flow,
    isTestMode: true,
  });
}

/**
 * POST /bench/floor (and the shaped floors): an Update-With-Start of a bench-only workflow on the
 * order task queue, mounted behind the API's own middleware (request id, access log, errors, JSON
 * body) but without authentication or idempotency: what evaluate costs beyond this is ours, not
 * Temporal's.
 */
export function floorRoutes(client: Client, taskQueue: string): ReturnType<Router['routes']> {
  const router = new Router();
  for (const { path, workflow, asOrder } of FLOORS) {
    router.post(path, async (ctx) => {
      const id = randomUUID();
      const start = new WithStartWorkflowOperation(workflow, {
        workflowId: `bench-floor-${id}`,
        taskQueue,
        workflowIdConflictPolicy: 'USE_EXISTING',
        ...(asOrder && { typedSearchAttributes: asOrderAttributes(id, asOrder) }),
      });
      const outcome = await client.workflow.executeUpdateWithStart(floorUpdate, { startWorkflowOperation: start });
      ctx.body = { outcome };
    });
  }
  return router.routes();
}
