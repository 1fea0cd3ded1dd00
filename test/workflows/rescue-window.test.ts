import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { rescueWindowWorkflow } from '../../src/workflows';
import { createTimeSkippingEnv, sharedWorkflowBundle, uniqueTaskQueue } from '../helpers/temporal';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('durable window timers (time-skipping server)', () => {
  let env: TestWorkflowEnvironment;

  beforeAll(async () => {
    env = await createTimeSkippingEnv();
  });
  afterAll(async () => {
    await env?.teardown();
  });

  async function runWindow(lengthMs: number): Promise<{ startedAt: number; closedAt: number }> {
    const taskQueue = uniqueTaskQueue('window');
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: sharedWorkflowBundle(),
    });
    const startedAt = await env.currentTimeMs();
    const endsAtUtc = new Date(startedAt + lengthMs).toISOString();
    const result = await worker.runUntil(
      env.client.workflow.execute(rescueWindowWorkflow, {
        taskQueue,
        workflowId: `window-${taskQueue}`,
        args: [{ endsAtUtc }],
      }),
    );
    return { startedAt, closedAt: Date.parse(result.closedAtUtc) };
  }

  it('holds a 21-day async MIT window open for 21 days of workflow time, then closes it', async () => {
    const { startedAt, closedAt } = await runWindow(21 * DAY_MS);
    expect(closedAt - startedAt).toBeGreaterThanOrEqual(21 * DAY_MS);
    expect(closedAt - startedAt).toBeLessThan(21 * DAY_MS + 60_000);
  });

  it('closes a window whose end is already past at once', async () => {
    const { startedAt, closedAt } = await runWindow(-DAY_MS);
    expect(closedAt - startedAt).toBeLessThan(60_000);
  });
});
