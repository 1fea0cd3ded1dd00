import { randomUUID } from 'node:crypto';
import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { startReceiver } from '../helpers/https-receiver';
import { outboxSettled } from '../helpers/outbox';
import { startTestStack, type TestStack } from '../helpers/stack';

const EVENTS = 100;
const ENDPOINTS = 3;

/**
 * A burst of events fanned out to several endpoints through the outbox relay and the delivery
 * workflows: every endpoint receives every event exactly once. (`npm run bench:webhooks` does the
 * same with 1,000 events and prints the throughput.)
 */
describe('webhook fan-out', () => {
  jest.setTimeout(120_000);
  let stack: TestStack;
  let receivers: Array<Awaited<ReturnType<typeof startReceiver>>>;

  beforeAll(async () => {
    stack = await startTestStack();
    receivers = await Promise.all(Array.from({ length: ENDPOINTS }, () => startReceiver(200)));
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.stop()));
    await stack?.stop();
  });

  it(`delivers ${EVENTS} events to ${ENDPOINTS} endpoints: all delivered, none twice`, async () => {
    const merchant = await seedMerchant(stack.db);
    const token = await accessToken(stack.baseUrl, await seedKey(stack.db, merchant));
    for (const receiver of receivers) {
      const res = await fetch(`${stack.baseUrl}/v1/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: receiver.url, events: ['order.completed'] }),
      });
      expect(res.status).toBe(201);
    }
    // What the order workflows write on completion: one outbox row per event.
    const events = Array.from({ length: EVENTS }, (_, i) => ({
      id: randomUUID(),
      name: 'order.completed',
      merchant_id: merchant.mid,
      partner_id: merchant.pid,
      order_id: randomUUID(),
      external_order_id: `burst-${i}`,
      confirmation_id: randomUUID(),
      data: null,
      is_test_mode: true,
      occurred_at: new Date(),
    }));
    await stack.db('events').insert(events);

    // Idle relay: all events fanned out, all deliveries settled. Receivers have everything they will get.
    const settled = await outboxSettled(stack.db, 90_000);
    expect(settled.attempts).toBe(EVENTS * ENDPOINTS); // one attempt per delivery: none sent twice
    for (const receiver of receivers) {
      const envelopes = receiver.received.map(
        (r) => JSON.parse(r.body) as { IdempotencyKey: string; OrderId: string; IsResent: boolean },
      );
      expect(envelopes).toHaveLength(EVENTS);
      expect(new Set(envelopes.map((e) => e.IdempotencyKey)).size).toBe(EVENTS);
      expect(new Set(envelopes.map((e) => e.OrderId))).toEqual(new Set(events.map((e) => e.order_id)));
      expect(envelopes.every((e) => e.IsResent === false)).toBe(true);
    }
    const deliveries = await stack.db('webhook_deliveries').select('status', 'attempts');
    expect(deliveries).toHaveLength(EVENTS * ENDPOINTS);
    expect(deliveries.filter((d) => d.status === 'delivered' && d.attempts === 1)).toHaveLength(EVENTS * ENDPOINTS);
  });
});
