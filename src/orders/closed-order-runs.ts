import type { Client } from '@temporalio/client';
import { defineSearchAttributeKey } from '@temporalio/common';
import type { ChargesToReconcile } from '../activities/charge-reconciliation';
import { OrderFailure } from '../domain/orders/order-failure';
import { chargeReconciliationWorkflowId } from '../domain/orders/workflow-ids';
import { SEARCH_ATTRIBUTES } from '../domain/search-attributes';
import { chargeReconciliationWorkflow } from '../workflows';
import { isDeadlineExceeded } from './workflow-call-errors';

const ORDER_ID = defineSearchAttributeKey(SEARCH_ATTRIBUTES.orderId.name, 'KEYWORD');

/**
 * What the API asks Temporal of an order workflow whose run closed before deciding an order
 * (src/orders/unevaluated-run.ts): which run it was (its orderId, from its search attributes, not
 * its history), and the reconciliation of its charges from the charges ledger.
 */
export class ClosedOrderRuns {
  constructor(
    private readonly client: Client,
    private readonly taskQueue: string,
    private readonly deadlineMs: number,
  ) {}

  /** The latest run: still running, or closed, with the orderId it ran under (FcOrderId). */
  async latestRun(workflowId: string): Promise<{ running: boolean; orderId: string | null }> {
    const handle = this.client.workflow.getHandle(workflowId);
    return this.client.connection.withDeadline(Date.now() + this.deadlineMs, async () => {
      const { status, typedSearchAttributes } = await handle.describe();
      const orderId = typedSearchAttributes.get(ORDER_ID);
      return { running: status.name === 'RUNNING', orderId: typeof orderId === 'string' ? orderId : null };
    });
  }

  /** Reconciles an order's charges (src/workflows/charge-reconciliation.ts): true once none may still stand. */
  async reconcileCharges(input: ChargesToReconcile): Promise<boolean> {
    try {
      const { settled } = await this.client.connection.withDeadline(Date.now() + this.deadlineMs, () =>
        this.client.workflow.execute(chargeReconciliationWorkflow, {
          workflowId: chargeReconciliationWorkflowId(input.orderId),
          taskQueue: this.taskQueue,
          args: [input],
          workflowIdConflictPolicy: 'USE_EXISTING',
          workflowIdReusePolicy: 'ALLOW_DUPLICATE',
        }),
      );
      return settled;
    } catch (err) {
      // Not settled in time: nothing was decided for this evaluate; its retry finds the reconciliation.
      if (isDeadlineExceeded(err)) throw new OrderFailure({ reason: 'order_temporarily_unavailable' });
      throw err;
    }
  }
}
