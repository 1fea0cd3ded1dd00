import { randomUUID } from 'node:crypto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { type ActivityConfig, activitiesFor } from '../../src/activities';
import type { Db } from '../../src/db/knex';
import { registerSearchAttributes } from '../../src/temporal/search-attributes';
import { capturedLogger } from './log-capture';
import { shared } from './shared-env';

/** A task queue of its own, so concurrent test files never steal each other's tasks. */
export function uniqueTaskQueue(prefix = 'test'): string {
  return `${prefix}-${randomUUID()}`;
}

/** The workflow bundle global-setup built once for the whole run: production's, tracing off. */
export function sharedWorkflowBundle(): { codePath: string } {
  return { codePath: shared('workflowBundle') };
}

/**
 * A time-skipping environment on the Java test server provisioned by global-setup (the SDK's
 * own download is the fallback when no server could be provisioned).
 */
export async function createTimeSkippingEnv(): Promise<TestWorkflowEnvironment> {
  const path = process.env.TEST_TEMPORAL_TEST_SERVER;
  const options = path ? { server: { executable: { type: 'existing-path' as const, path } } } : {};
  const env = await startWithRetries(() => TestWorkflowEnvironment.createTimeSkipping(options));
  // The order workflows upsert these; the test server refuses undeclared ones.
  await registerSearchAttributes(env.connection, 'default');
  return env;
}

/**
 * The SDK gives the test server (a JVM) 5 s to answer after its start; on two cores busy with the
 * rest of the suite it can take longer. Its start is tried three times before a test fails on it.
 */
async function startWithRetries(start: () => Promise<TestWorkflowEnvironment>): Promise<TestWorkflowEnvironment> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (err) {
      if (attempt >= 3 || !/did not start within/.test(String(err))) throw err;
    }
  }
}

/** A worker with the real activities on a time-skipping environment; `stop` drains it. */
export async function startTimeSkippingWorker(
  env: TestWorkflowEnvironment,
  setup: { taskQueue: string; config: ActivityConfig; db: Db },
): Promise<{ stop(): Promise<void> }> {
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue: setup.taskQueue,
    workflowBundle: sharedWorkflowBundle(),
    activities: activitiesFor(setup.config, setup.db, capturedLogger().logger),
  });
  const running = worker.run();
  return {
    async stop() {
      worker.shutdown();
      await running;
    },
  };
}
