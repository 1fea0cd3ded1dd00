import type { AddressInfo } from 'node:net';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { SMTPServer } from 'smtp-server';
import { loadConfig } from '../../src/config';
import { createTestDatabase, type TestDatabase } from './database';
import { saveTrackedHistories } from './histories';
import { createTimeSkippingEnv, startTimeSkippingWorker, uniqueTaskQueue } from './temporal';

/** What a webhook workflow test runs against; the fields are set once its beforeAll has run. */
export interface WebhookWorkflowStack {
  env: TestWorkflowEnvironment;
  database: TestDatabase;
  config: ReturnType<typeof loadConfig>;
  taskQueue: string;
  /** Every mail the real SMTP server received (failure-streak alerts), in order. */
  mails: Array<{ to: string; text: string }>;
}

/**
 * Registers the describe block's beforeAll/afterAll for webhook workflow tests: the time-skipping
 * server, a test database, a real SMTP server collecting mails, and a worker on its own task
 * queue. Tracked histories are saved as fixtures at the end (CAPTURE_HISTORIES).
 */
export function useWebhookWorkflowStack(queuePrefix: string): WebhookWorkflowStack {
  const stack = { taskQueue: uniqueTaskQueue(queuePrefix), mails: [] } as unknown as WebhookWorkflowStack;
  let smtp: SMTPServer | undefined;
  let worker: Awaited<ReturnType<typeof startTimeSkippingWorker>> | undefined;

  beforeAll(async () => {
    const server = new SMTPServer({
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      // A relay refuses some recipients (550): mail to refused.example never goes out.
      onRcptTo(address, _session, done) {
        if (address.address.endsWith('@refused.example')) {
          done(Object.assign(new Error('550 recipient refused'), { responseCode: 550 }));
        } else done();
      },
      onData(stream, session, done) {
        let text = '';
        stream.on('data', (c: Buffer) => (text += c.toString('utf8')));
        stream.on('end', () => {
          stack.mails.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), text });
          done();
        });
      },
    });
    smtp = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const smtpPort = (server.server.address() as AddressInfo).port;
    stack.config = loadConfig({ SMTP_URL: `smtp://127.0.0.1:${smtpPort}` });
    [stack.env, stack.database] = await Promise.all([createTimeSkippingEnv(), createTestDatabase()]);
    worker = await startTimeSkippingWorker(stack.env, {
      taskQueue: stack.taskQueue,
      config: stack.config,
      db: stack.database.db,
    });
  });
  afterAll(async () => {
    if (stack.env) await saveTrackedHistories(stack.env.client);
    await worker?.stop();
    await stack.env?.teardown();
    await stack.database?.drop();
    if (smtp) await new Promise<void>((resolve) => smtp?.close(() => resolve()));
  });
  return stack;
}
