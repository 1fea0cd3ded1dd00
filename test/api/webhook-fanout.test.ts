import { startReceiver } from '../../scripts/receivers/https-receiver';
import { insertDueDeliveries } from '../../src/db/repositories/webhook-due-deliveries';
import { createEndpoint } from '../../src/db/repositories/webhook-endpoints';
import { derivedUuid } from '../../src/domain/ids';
import { eventually } from '../helpers/eventually';
import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { completedOrderEvent, outboxSettled } from '../helpers/outbox';
import { startTestStack, type TestStack } from '../helpers/stack';

const EVENTS = 100;
const ENDPOINTS = 3;

/**
 * A burst of events fanned out to several endpoints through the outbox relay and the delivery
 * workflows: every endpoint receives every event exactly once. (`npm run bench:webhooks` does the
 * same with 1,000 events and prints the throughput.)
 */
describe('webhook fan-out', () => {
  jest.setTimeout(150_000);
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
    const events = Array.from({ length: EVENTS }, (_, i) => completedOrderEvent(merchant, `burst-${i}`));
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

  it("a delivery whose signal was lost (a crash after the commit) is delivered by the relay's sweep", async () => {
    const merchant = await seedMerchant(stack.db);
    const receiver = receivers[0] as (typeof receivers)[number];
    const before = receiver.received.length;
    const { row: endpoint } = await createEndpoint(
      stack.db,
      { partnerId: merchant.pid, merchantId: merchant.mid, url: receiver.url, events: ['*'], description: null },
      stack.config.vaultKeys,
    );
    const event = completedOrderEvent(merchant, 'lost-signal', { dispatched_at: new Date() });
    const eventId = event.id;
    await stack.db('events').insert(event);
    // What a fan-out leaves when its process dies between the commit and the signal: a due row, no workflow.
    const id = derivedUuid(eventId, endpoint.id);
    await insertDueDeliveries(stack.db, [{ id, event_id: eventId, endpoint_id: endpoint.id }]);
    await stack
      .db('webhook_deliveries')
      .where({ id })
      .update({ next_attempt_at: new Date(Date.now() - 2 * 60_000) });
    await eventually(
      () => stack.db('webhook_deliveries').where({ id }).first('status', 'attempts'),
      (row) => row?.status === 'delivered',
      { describe: 'the overdue delivery to be delivered after the sweep signals its endpoint', timeoutMs: 100_000 },
    );
    const keys = receiver.received.slice(before).map((r) => JSON.parse(r.body).IdempotencyKey as string);
    expect(keys).toEqual([id]);
  });
});
