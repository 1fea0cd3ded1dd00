import { randomUUID } from 'node:crypto';
import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import { startDelayedReceiver } from '../../scripts/receivers/slow-receivers';
import { callApi } from '../helpers/api-client';
import { eventually } from '../helpers/eventually';
import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { shared } from '../helpers/shared-env';
import { startTestStack, type TestStack } from '../helpers/stack';
import { killWorker, startWorkerProcess } from '../helpers/worker-process';

const EVENTS = 60;
const ENDPOINTS = 2;
const CONCURRENCY = 4;
/** Deliveries one claim of the per-endpoint activity takes (its rounds, src/activities/webhook-deliver-due.ts). */
const CLAIM = 5 * CONCURRENCY;

/**
 * The webhook worker as production runs it (its own process), SIGKILLed while its per-endpoint
 * activities are in the middle of a batch, then replaced. The claimed deliveries' leases end, the
 * new worker claims them again: every delivery is delivered, each recorded once; the receiver sees
 * a second POST only of attempts that were in flight (sent, unrecorded) when the worker died.
 */
describe('a webhook worker killed mid-batch loses and doubles nothing', () => {
  jest.setTimeout(180_000);
  let stack: TestStack;
  let receiver: Awaited<ReturnType<typeof startDelayedReceiver>>;
  const output: string[] = [];

  beforeAll(async () => {
    // Inherited by the worker processes: short attempt deadlines, so the dead worker's leases end soon.
    process.env.WEBHOOK_TIMEOUT_MS = '2000';
    process.env.WEBHOOK_ENDPOINT_CONCURRENCY = String(CONCURRENCY);
    stack = await startTestStack({ inProcessWorker: false });
    receiver = await startDelayedReceiver(150);
  });
  afterAll(async () => {
    await receiver?.stop();
    await stack?.stop();
    await appendFile(path.join(shared('logDir'), `worker-${process.pid}.log`), output.join(''));
  });

  it(`${EVENTS} events x ${ENDPOINTS} endpoints, the worker killed mid-batch: all delivered, each recorded once`, async () => {
    const merchant = await seedMerchant(stack.db);
    const token = await accessToken(stack.baseUrl, await seedKey(stack.db, merchant));
    for (let i = 0; i < ENDPOINTS; i++) {
      const res = await callApi(stack.baseUrl, token, 'POST', '/v1/webhooks', {
        url: receiver.urlFor(`e${i}`),
        events: ['order.completed'],
      });
      expect(res.status).toBe(201);
    }
    const first = await startWorkerProcess(stack, output);
    await stack.db('events').insert(
      Array.from({ length: EVENTS }, (_, i) => ({
        id: randomUUID(),
        name: 'order.completed',
        merchant_id: merchant.mid,
        partner_id: merchant.pid,
        order_id: randomUUID(),
        external_order_id: `crash-${i}`,
        confirmation_id: randomUUID(),
        data: null,
        is_test_mode: true,
        occurred_at: new Date(),
      })),
    );
    const expected = EVENTS * ENDPOINTS;
    await eventually(
      () => receiver.received.length,
      (n) => n >= 30,
      { describe: 'the first worker to be in the middle of its batches', timeoutMs: 60_000, intervalMs: 20 },
    );
    await killWorker(first);
    const beforeKill = new Set(receiver.received.map((r) => r.key));
    const receivedAtKill = receiver.received.length;
    expect(receivedAtKill).toBeLessThan(expected); // killed mid-way, not after the end

    const second = await startWorkerProcess(stack, output);
    try {
      const deliveries = await eventually(
        () => stack.db('webhook_deliveries').select('id', 'status', 'attempts'),
        (rows) => rows.length === expected && rows.every((r) => r.status === 'delivered'),
        { describe: `all ${expected} deliveries delivered after the restart`, timeoutMs: 120_000, intervalMs: 250 },
      );
      // Each delivery recorded once: one attempt, and it succeeded.
      expect(deliveries.every((d) => d.attempts === 1)).toBe(true);
      const attempts = await stack.db('webhook_attempts').select('delivery_id', 'succeeded');
      expect(attempts).toHaveLength(expected);
      expect(new Set(attempts.map((a) => a.delivery_id)).size).toBe(expected);
      expect(attempts.every((a) => a.succeeded)).toBe(true);

      // None lost at the receiver; a key came twice only if its first POST was in flight at the kill.
      const keys = receiver.received.map((r) => r.key);
      expect(new Set(keys)).toEqual(new Set(deliveries.map((d) => d.id)));
      const twice = keys.filter((k, i) => keys.indexOf(k) !== i);
      expect(twice.every((k) => beforeKill.has(k))).toBe(true);
      expect(twice.length).toBeLessThanOrEqual(ENDPOINTS * CLAIM);
      process.stdout.write(
        `webhook worker crash: ${receivedAtKill} POSTs before the kill, ${twice.length} sent again after it\n`,
      );
    } finally {
      second.kill('SIGTERM');
      await new Promise((r) => second.once('exit', r));
    }
  });
});
