import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import { acceptedRescuePriority } from '../temporal/task-priority';

/** The first Temporal server release whose UpdateWorkflowExecutionOptions changes a priority. */
const FIRST_RELEASE_WITH_PRIORITY_UPDATES: readonly [number, number] = [1, 31];
/** The lowering is a scheduling hint: it waits this long at most, then the order keeps its level. */
const LOWER_DEADLINE_MS = 5_000;

/** Whether a server release string ("1.31.0", "1.29.1-xyz") is at least major.minor. */
export function releaseAtLeast(version: string | undefined, [major, minor]: readonly [number, number]): boolean {
  const match = /^v?(\d+)\.(\d+)/.exec(version ?? '');
  if (!match) return false;
  const [got, gotMinor] = [Number(match[1]), Number(match[2])];
  return got > major || (got === major && gotMinor >= minor);
}

/**
 * Lowers an accepted async MIT order's task priority (src/temporal/task-priority.ts): once its
 * evaluate has answered SUBMITTED, its retries fall behind every evaluate, its own merchant's
 * next ones included, so an hour-old burst of acceptances coming back as retries delays
 * retries, not answers (docs/benchmarks.md, `bench:checkout-under-retries`).
 *
 * Best effort by design: a priority decides only the order in which a backlogged task queue is
 * served, never what an order does, so a lowering that fails leaves the order at the MIT level
 * (as before) and is logged, and the evaluate's answer never waits on it. Servers older than
 * 1.31 cannot change a running workflow's priority; against one this does nothing (asked once
 * per process). LOWER_ACCEPTED_RESCUE_PRIORITY=false turns it off (src/config/temporal.ts).
 */
export class AcceptedRescues {
  private supported: Promise<boolean> | undefined;

  constructor(
    private readonly client: Client,
    private readonly logger: Logger,
    private readonly enabled = true,
  ) {}

  /** Starts the lowering and returns at once; the promise (for tests) says whether it was applied. */
  lowerPriority(workflowId: string, merchantId: string): Promise<boolean> {
    return this.lower(workflowId, merchantId).catch((err: unknown) => {
      this.logger.warn({ err, workflowId }, 'could not lower an accepted rescue’s task priority');
      return false;
    });
  }

  private async lower(workflowId: string, merchantId: string): Promise<boolean> {
    if (!this.enabled || !(await this.serverSupportsIt())) return false;
    const { connection, options } = this.client;
    await connection.withDeadline(Date.now() + LOWER_DEADLINE_MS, () =>
      connection.workflowService.updateWorkflowExecutionOptions({
        namespace: options.namespace,
        workflowExecution: { workflowId },
        workflowExecutionOptions: { priority: acceptedRescuePriority(merchantId) },
        updateMask: { paths: ['priority'] },
        identity: options.identity,
      }),
    );
    return true;
  }

  private serverSupportsIt(): Promise<boolean> {
    this.supported ??= (async () => {
      const { connection } = this.client;
      const info = await connection.withDeadline(Date.now() + LOWER_DEADLINE_MS, () =>
        connection.workflowService.getSystemInfo({}),
      );
      const supported = releaseAtLeast(info.serverVersion ?? undefined, FIRST_RELEASE_WITH_PRIORITY_UPDATES);
      if (!supported)
        this.logger.info(
          { serverVersion: info.serverVersion },
          'Temporal server older than 1.31: accepted async MIT orders keep the MIT task priority',
        );
      return supported;
    })().catch((err: unknown) => {
      this.supported = undefined; // not answered: ask again next time
      throw err;
    });
    return this.supported;
  }
}
