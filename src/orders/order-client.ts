import { createHash, randomUUID } from 'node:crypto';
import { type Client, WithStartWorkflowOperation } from '@temporalio/client';
import { type UpdateDefinition, WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type {
  CallerDeadline,
  EvaluateInput,
  EvaluateResult,
  OrderResume,
  OrderWorkflowInput,
  RefundRequest,
  RefundResult,
} from '../domain/orders/contracts';
import { FAILURE } from '../domain/orders/failures';
import { OrderFailure } from '../domain/orders/order-failure';
import { orderWorkflowId, refundWorkflowId } from '../domain/orders/workflow-ids';
import { orderPriority, refundPriority } from '../temporal/task-priority';
import { evaluateUpdate, orderStartSearchAttributes, orderWorkflow, refundWorkflow } from '../workflows';
import { answerByFor, mayStillRun } from './caller-deadline';
import { ClosedOrderRuns } from './closed-order-runs';
import { orderRequestMismatchOf } from './order-request-mismatch';
import { failureDetail, failureType, isClosed, isDeadlineExceeded } from './workflow-call-errors';

/** The order's workflow has closed (or never existed): the caller answers from the read model. */
export const CLOSED = Symbol('closed');
/** Evaluate's restart after a run that closed with no order made (src/orders/unevaluated-run.ts). */
export const AFTER_UNEVALUATED_RUN = Symbol('after unevaluated run');

const busy = () => new OrderFailure({ reason: 'order_busy' });
const temporarilyUnavailable = () => new OrderFailure({ reason: 'order_temporarily_unavailable' });
const outcomePending = () => new OrderFailure({ reason: 'order_outcome_pending' });

export interface OrderClientOptions {
  /** How long a call waits for the workflow (including busy retries) before answering. */
  deadlineMs?: number;
  /** Updates carry their caller's deadline (default true; off against a time-skipping test server). */
  callerDeadline?: boolean;
}

/**
 * How long the API waits on a workflow before order_temporarily_unavailable (retry with the same key): rides out a
 * worker restart, within a merchant's HTTP timeout. WORKFLOW_CALL_DEADLINE_MS (src/config/temporal.ts).
 */
export const DEFAULT_DEADLINE_MS = 20_000;

const BUSY_BACKOFF_MS = [25, 50, 100, 200, 400, 800];

/**
 * How the API reaches the order and refund workflows (and nothing else does): Update-With-Start
 * for evaluate, Updates for the commands, one refund workflow per refund. The API never decides
 * an outcome; it relays the workflow's. A busy order is retried with backoff until the deadline,
 * then fails order_busy. A call not answered by then is order_temporarily_unavailable (not taken
 * up, and never will be) or order_outcome_pending (it may still run): caller-deadline.ts. These
 * failures are OrderFailures (src/domain/orders/order-failure.ts); src/api answers them. Either way the
 * idempotency claim is released, and the same request retried gets the first call's outcome.
 */
export class OrderClient {
  private readonly deadlineMs: number;
  private readonly callerDeadline: boolean;
  /** Runs that closed before deciding an order (src/orders/unevaluated-run.ts). */
  readonly closedRuns: ClosedOrderRuns;

  constructor(
    private readonly client: Client,
    private readonly taskQueue: string,
    options: OrderClientOptions = {},
  ) {
    this.deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
    this.callerDeadline = options.callerDeadline ?? true;
    this.closedRuns = new ClosedOrderRuns(client, taskQueue, this.deadlineMs);
  }

  /**
   * Starts the order's workflow if it is not running and sends it the evaluate. A running one
   * gets a further evaluate; a closed one is not restarted (one externalOrderId, one order)
   * unless `restart` says why: a new attempt on a declined order continues that order in a new
   * run, and a run that closed with no order made (AFTER_UNEVALUATED_RUN) leaves the id free.
   */
  async evaluate(
    owner: { merchantId: string; partnerId: string; isTestMode: boolean },
    externalOrderId: string,
    input: EvaluateInput,
    restart?: { orderId: string; orderSessionKey: string; resume: OrderResume } | typeof AFTER_UNEVALUATED_RUN,
  ): Promise<EvaluateResult | typeof CLOSED> {
    const newAttemptOf = restart === AFTER_UNEVALUATED_RUN ? undefined : restart;
    const workflowId = orderWorkflowId(owner.merchantId, externalOrderId);
    const startArgs: OrderWorkflowInput = {
      orderId: newAttemptOf?.orderId ?? randomUUID(),
      orderSessionKey: newAttemptOf?.orderSessionKey ?? randomUUID(),
      merchantId: owner.merchantId,
      partnerId: owner.partnerId,
      externalOrderId,
      isTestMode: owner.isTestMode,
      ...(newAttemptOf ? { resume: newAttemptOf.resume } : {}),
      chargeRecordsDecision: true,
    };
    const updateId = `${evaluateUpdate.name}:${randomUUID()}`;
    return this.withBusyRetries({ workflowId, updateId }, (answerBy) => {
      const start = new WithStartWorkflowOperation(orderWorkflow, {
        workflowId,
        taskQueue: this.taskQueue,
        args: [startArgs],
        workflowIdConflictPolicy: 'USE_EXISTING',
        // One externalOrderId, one order: a closed order's workflow is started again only as `restart` says.
        workflowIdReusePolicy: restart ? 'ALLOW_DUPLICATE' : 'REJECT_DUPLICATE',
        priority: orderPriority(input.flow, owner.merchantId), // checkout first, merchants in turn
        typedSearchAttributes: orderStartSearchAttributes({ ...startArgs, flow: input.flow }),
        // What an operator reads in the Temporal UI's list (no personal or card data).
        staticSummary: `${input.flow} order ${externalOrderId}: ${input.amount} ${input.currency} (minor units)`,
      });
      return this.client.workflow.executeUpdateWithStart(evaluateUpdate, {
        args: [{ ...input, answerBy }],
        updateId,
        startWorkflowOperation: start,
      });
    });
  }

  /**
   * Sends a command (capture, cancel, challenge) to an order's workflow. With the merchant's
   * idempotencyKey, the key and the command's arguments name the Update: a same-key retry whose
   * first attempt is still running or already done (its answer lost with a broken connection or
   * an order_outcome_pending) attaches to that Update and gets its result, even after the
   * workflow closed, instead of running a second one. The same key with other arguments (its
   * stored request released by that failure) is another Update, which the order then refuses or
   * runs: it is never answered with the first one's result.
   */
  async command<Ret, Arg extends CallerDeadline>(
    workflowId: string,
    update: UpdateDefinition<Ret, [Arg], string>,
    arg: Arg,
    idempotencyKey?: string,
  ): Promise<Ret | typeof CLOSED> {
    const handle = this.client.workflow.getHandle(workflowId);
    const updateId = idempotencyKey
      ? `${update.name}:${idempotencyKey}:${createHash('sha256').update(JSON.stringify(arg)).digest('hex').slice(0, 16)}`
      : `${update.name}:${randomUUID()}`;
    return this.withBusyRetries({ workflowId, updateId }, (answerBy) =>
      handle.executeUpdate(update, { args: [{ ...arg, answerBy }], updateId }),
    );
  }

  /**
   * Runs one refund to its end (or attaches to the same refund already running). A run started for
   * an earlier caller who stopped waiting ends unrun (caller_gone): this caller then starts its own.
   */
  async refund(request: RefundRequest): Promise<Exclude<RefundResult, { kind: 'caller_gone' }>> {
    const workflowId = refundWorkflowId(
      request.orderId,
      request.kind === 'full' ? { kind: 'full' } : { kind: 'partial', idempotencyKey: request.idempotencyKey ?? '' },
    );
    const deadline = Date.now() + this.deadlineMs;
    const answerBy = this.callerDeadline ? answerByFor(deadline, this.deadlineMs) : undefined;
    try {
      return await this.client.connection.withDeadline(deadline, async () => {
        for (;;) {
          const handle = await this.client.workflow.start(refundWorkflow, {
            workflowId,
            taskQueue: this.taskQueue,
            args: [{ ...request, answerBy }],
            workflowIdConflictPolicy: 'USE_EXISTING',
            workflowIdReusePolicy: 'ALLOW_DUPLICATE',
            priority: refundPriority(request.merchantId),
            staticSummary: `${request.kind} refund of order ${request.orderId}`,
          });
          const result = await handle.result();
          if (result.kind !== 'caller_gone') return result;
          if (result.answerBy === answerBy) throw temporarilyUnavailable(); // ours (clocks apart)
        }
      });
    } catch (err) {
      if (isDeadlineExceeded(err)) throw temporarilyUnavailable();
      throw err;
    }
  }

  /**
   * Runs `call` (given the answerBy its Update carries) until answered, retrying while the order is
   * busy or turned away an earlier Update of the same id that outlived its caller, until the
   * deadline; then tells apart an Update that may still run from one that never will.
   */
  private async withBusyRetries<T>(
    sent: { workflowId: string; updateId: string },
    call: (answerBy: string | undefined) => Promise<T>,
  ): Promise<T | typeof CLOSED> {
    const deadline = Date.now() + this.deadlineMs;
    const answerBy = this.callerDeadline ? answerByFor(deadline, this.deadlineMs) : undefined;
    for (let attempt = 0, sentAtMs = 0; ; attempt++) {
      try {
        sentAtMs = Date.now();
        return await this.client.connection.withDeadline(deadline, () => call(answerBy));
      } catch (err) {
        if (err instanceof WorkflowExecutionAlreadyStartedError || isClosed(err)) return CLOSED;
        if (isDeadlineExceeded(err))
          throw (await mayStillRun(this.client, { ...sent, sentAtMs }, answerBy))
            ? outcomePending()
            : temporarilyUnavailable();
        const type = failureType(err);
        if (type === FAILURE.temporarilyUnavailable || type === FAILURE.storeUnavailable)
          throw temporarilyUnavailable();
        if (type === FAILURE.chargeOutcomeUnknown) throw outcomePending();
        if (type === FAILURE.externalOrderTaken) return CLOSED; // another run's order: answered from it
        if (type === FAILURE.orderNotEvaluated) throw new OrderFailure({ reason: 'order_not_found' });
        if (type === FAILURE.orderRequestMismatch) throw orderRequestMismatchOf(failureDetail(err));
        // callerGone: attached (same Update id) to an earlier one that outlived its caller; sent
        // again, ours is taken up (or, if clocks disagree, turned away until the deadline: temporarily unavailable).
        if (type !== FAILURE.orderBusy && type !== FAILURE.callerGone) throw err;
        const pause =
          (BUSY_BACKOFF_MS[Math.min(attempt, BUSY_BACKOFF_MS.length - 1)] as number) * (0.5 + Math.random());
        if (Date.now() + pause >= deadline) throw type === FAILURE.orderBusy ? busy() : temporarilyUnavailable();
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  }
}
