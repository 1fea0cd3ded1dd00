import { randomUUID } from 'node:crypto';
import { type Client, WithStartWorkflowOperation, WorkflowNotFoundError } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { orderWorkflowId } from '../db/repositories/orders';
import type { EvaluateInput, EvaluateResult } from '../domain/orders/contracts';
import { SEARCH_ATTRIBUTES } from '../domain/search-attributes';
import {
  type cancelUpdate,
  type captureUpdate,
  type challengeUpdate,
  evaluateUpdate,
  orderWorkflow,
  type refundUpdate,
} from '../workflows';

/** The order's workflow has closed (or never existed): the caller answers from the read model. */
export const CLOSED = Symbol('closed');

type Command = typeof captureUpdate | typeof cancelUpdate | typeof refundUpdate | typeof challengeUpdate;

/**
 * How the API reaches the order workflows (and nothing else does): Update-With-Start for
 * evaluate, Updates for the rest. The API never decides an outcome; it relays the workflow's.
 */
export class OrderWorkflows {
  constructor(
    private readonly client: Client,
    private readonly taskQueue: string,
  ) {}

  /**
   * Starts the order's workflow if it is not running and sends it the evaluate. A running one
   * gets a further evaluate; a closed one is never restarted (one externalOrderId, one order).
   */
  async evaluate(
    owner: { merchantId: string; partnerId: string; isTestMode: boolean },
    externalOrderId: string,
    input: EvaluateInput,
  ): Promise<EvaluateResult | typeof CLOSED> {
    const workflowId = orderWorkflowId(owner.merchantId, externalOrderId);
    const start = new WithStartWorkflowOperation(orderWorkflow, {
      workflowId,
      taskQueue: this.taskQueue,
      args: [
        {
          orderId: randomUUID(),
          orderSessionKey: randomUUID(),
          merchantId: owner.merchantId,
          partnerId: owner.partnerId,
          externalOrderId,
          isTestMode: owner.isTestMode,
        },
      ],
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      searchAttributes: {
        [SEARCH_ATTRIBUTES.merchantId.name]: [owner.merchantId],
        [SEARCH_ATTRIBUTES.externalOrderId.name]: [externalOrderId],
        [SEARCH_ATTRIBUTES.flow.name]: [input.flow],
        [SEARCH_ATTRIBUTES.testMode.name]: [owner.isTestMode],
      },
    });
    try {
      return await this.client.workflow.executeUpdateWithStart(evaluateUpdate, {
        args: [input],
        startWorkflowOperation: start,
      });
    } catch (err) {
      if (err instanceof WorkflowExecutionAlreadyStartedError || isClosed(err)) return CLOSED;
      throw err;
    }
  }

  async command<R>(workflowId: string, update: Command, args: unknown[]): Promise<R | typeof CLOSED> {
    try {
      return (await this.client.workflow.getHandle(workflowId).executeUpdate(update as never, { args } as never)) as R;
    } catch (err) {
      if (isClosed(err)) return CLOSED;
      throw err;
    }
  }
}

function isClosed(err: unknown): boolean {
  if (err instanceof WorkflowNotFoundError) return true;
  const cause = (err as { cause?: unknown })?.cause;
  return (
    cause instanceof WorkflowNotFoundError ||
    /workflow execution already completed/i.test(String((err as Error)?.message))
  );
}
