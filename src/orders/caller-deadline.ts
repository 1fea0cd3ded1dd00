import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { isClosed, isDeadlineExceeded } from './workflow-call-errors';

/**
 * The caller's deadline carried by every order Update and refund (CallerDeadline): when they stop
 * being taken up, and, once it has passed, whether one sent may still run.
 */

/**
 * How long before its deadline a call's Updates stop being taken up: enough for an Update taken
 * up just before it to be answered in time, with room for clocks a little apart (the API's sets
 * answerBy, the Temporal server's stamps the workflow task that checks it).
 */
const TAKE_UP_MARGIN_MS = 2_000;

/** How long, after a call's deadline, the API spends finding out whether its Update may still run. */
const PROBE_MS = 1_500;

/** When a call with this deadline (of a client waiting deadlineMs) stops being taken up. */
export function answerByFor(deadline: number, deadlineMs: number): string {
  return new Date(deadline - Math.min(TAKE_UP_MARGIN_MS, deadlineMs / 4)).toISOString();
}

const { UpdateWorkflowExecutionLifecycleStage: UpdateStage, PendingWorkflowTaskState } = temporal.api.enums.v1;

/** A protobuf timestamp in epoch milliseconds (0 when absent). */
const epochMs = (t: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
  Number(t?.seconds ?? 0) * 1_000 + Math.floor((t?.nanos ?? 0) / 1e6);

/**
 * After a call's deadline: whether its Update may still run, which decides between
 * order_outcome_pending (may) and order_temporarily_unavailable (never will; order-client.ts). It may when it was accepted (its handler
 * runs to the end, the charge or capture included), or when a workflow task that began before
 * answerBy is still under way (its validator may yet accept it: validators read the task's start
 * time). Otherwise every later task turns it away (CallerDeadline). The task is read before the
 * Update, so an acceptance between the two reads is seen by the second, and both are read on one
 * run: the one the call reached, unless a run started since (its Update then went to an earlier
 * run, which cannot be asked). Whatever cannot be told (no answerBy, a newer run, Temporal slow
 * or not answering) counts as may.
 */
export async function mayStillRun(
  client: Client,
  sent: { workflowId: string; updateId: string; sentAtMs: number },
  answerBy: string | undefined,
): Promise<boolean> {
  if (!answerBy) return true;
  const { namespace, identity } = client.options;
  try {
    return await client.connection.withDeadline(Date.now() + PROBE_MS, async () => {
      const { pendingWorkflowTask: task, workflowExecutionInfo: run } =
        await client.workflowService.describeWorkflowExecution({
          namespace,
          execution: { workflowId: sent.workflowId },
        });
      // Started by this call (Update-With-Start) or before it, clocks a little apart allowed.
      if (epochMs(run?.startTime) > sent.sentAtMs + TAKE_UP_MARGIN_MS) return true;
      const runId = run?.execution?.runId ?? undefined;
      if (
        task?.state === PendingWorkflowTaskState.PENDING_WORKFLOW_TASK_STATE_STARTED &&
        epochMs(task.startedTime) <= Date.parse(answerBy)
      )
        return true;
      try {
        const polled = await client.workflowService.pollWorkflowExecutionUpdate({
          namespace,
          identity,
          updateRef: { workflowExecution: { workflowId: sent.workflowId, runId }, updateId: sent.updateId },
          // The stage it has reached, answered at once.
          waitPolicy: { lifecycleStage: UpdateStage.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_ADMITTED },
        });
        // Only admitted, and no task begun in time to accept it: turned away whenever taken up.
        return polled.stage !== UpdateStage.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_ADMITTED || !!polled.outcome;
      } catch (err) {
        if (isClosed(err) && !isDeadlineExceeded(err)) return false; // no such Update: turned away
        throw err;
      }
    });
  } catch {
    return true;
  }
}
