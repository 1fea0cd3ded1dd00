import { appendFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Client, Connection } from '@temporalio/client';
import { closeServer, listen } from '../../src/api/server';
import { type Config, loadConfig } from '../../src/config';
import type { Db } from '../../src/db/knex';
import { connectTemporalClient } from '../../src/temporal/connect';
import { startWorkerWithRelay } from '../../src/worker';
import { ManualClock } from './clock';
import { createTestDatabase } from './database';
import { capturedLogger } from './log-capture';
import { shared } from './shared-env';
import { sharedWorkflowBundle, uniqueTaskQueue } from './temporal';

export interface TestStack {
  baseUrl: string;
  databaseUrl: string;
  temporalAddress: string;
  config: Config;
  clock: ManualClock;
  db: Db;
  client: Client;
  connection: Connection;
  taskQueue: string;
  logs: ReturnType<typeof capturedLogger>;
  stop(): Promise<void>;
}

/**
 * The real service for API tests: the API on an ephemeral port, a real worker on its own task
 * queue, both on the shared Temporal dev server and on a fresh database. Logs are captured.
 */
export async function startTestStack(
  options: { env?: Record<string, string>; inProcessWorker?: boolean } = {},
): Promise<TestStack> {
  const taskQueue = uniqueTaskQueue('api');
  // Generous rate limits unless a test sets its own: tests are chatty by design.
  const config = loadConfig({
    LOG_LEVEL: 'info',
    TEMPORAL_TASK_QUEUE: taskQueue,
    RATE_LIMIT_BURST: '100000',
    RATE_LIMIT_PER_SECOND: '100000',
    OPEN_RATE_LIMIT_BURST: '100000',
    OPEN_RATE_LIMIT_PER_SECOND: '100000',
    ...options.env,
  });
  const clock = new ManualClock();
  const database = await createTestDatabase();
  const logs = capturedLogger();
  const address = shared('temporalAddress');
  const { connection, client } = await connectTemporalClient(address, 'default');
  // Without the in-process worker, a test runs its own (for example as a separate process).
  const inProcess =
    options.inProcessWorker === false
      ? undefined
      : await startWorkerWithRelay({
          address,
          client,
          config,
          db: database.db,
          logger: logs.logger,
          workflowBundle: sharedWorkflowBundle(),
          relayIntervalMs: 100,
        });
  const server: Server = await listen(
    { config, db: database.db, temporal: connection, temporalClient: client, logger: logs.logger, clock },
    '127.0.0.1',
    0,
    config.http,
  );
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    databaseUrl: database.url,
    temporalAddress: address,
    config,
    clock,
    db: database.db,
    client,
    connection,
    taskQueue,
    logs,
    stop: async () => {
      await closeServer(server);
      await inProcess?.stop();
      await connection.close();
      await database.drop();
      // Kept for the whole-run scan for secrets and card numbers (global-teardown.ts).
      await appendFile(path.join(shared('logDir'), `${process.pid}.log`), `${logs.text()}\n`);
    },
  };
}
