import { sleep } from '@temporalio/workflow';

/**
 * Sleeps on a durable timer until `deadline` (workflow time). Every window of the service (the
 * async MIT rescue window of up to 21 days, the Sync MIT hour window, the 5-minute capture window)
 * is such a timer: it survives worker restarts and is skipped, not waited, in time-skipping tests.
 */
export async function sleepUntil(deadline: Date): Promise<void> {
  const remaining = deadline.getTime() - Date.now();
  if (remaining > 0) await sleep(remaining);
}

export interface RescueWindowInput {
  /** ISO 8601 UTC end of the window. */
  endsAtUtc: string;
}

/** Holds a rescue window open until it closes; returns the workflow time at which it closed. */
export async function rescueWindowWorkflow(input: RescueWindowInput): Promise<{ closedAtUtc: string }> {
  await sleepUntil(new Date(input.endsAtUtc));
  return { closedAtUtc: new Date().toISOString() };
}
