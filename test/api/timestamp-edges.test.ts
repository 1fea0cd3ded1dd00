import { randomUUID } from 'node:crypto';
import { callApi } from '../helpers/api-client';
import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { completedOrderEvent } from '../helpers/outbox';
import { startTestStack, type TestStack } from '../helpers/stack';

/**
 * ISO 8601 timestamps at the edge of what the format allows: year 0000 passes the format, but
 * Postgres has no year 0 (1 BC comes before 1 AD). A query bound so far back is taken as written
 * (everything after it); a time the service would store is refused as bad input. Neither is a 500.
 */
describe('timestamps in year 0000', () => {
  let stack: TestStack;
  let token: string;
  let merchant: Awaited<ReturnType<typeof seedMerchant>>;
  beforeAll(async () => {
    stack = await startTestStack();
    merchant = await seedMerchant(stack.db);
    token = await accessToken(stack.baseUrl, await seedKey(stack.db, merchant));
  });
  afterAll(async () => {
    await stack?.stop();
  });
  const api = (method: string, path: string, body?: unknown) => callApi(stack.baseUrl, token, method, path, body);

  it('as a lower bound of the event feed: every event since then, 200', async () => {
    const event = completedOrderEvent(merchant, 'shop-1');
    await stack.db('events').insert(event);
    const events = await api('GET', '/v1/events?since=0000-01-01T00:00:00Z');
    expect([events.status, events.body.data?.map((e: { EventId: string }) => e.EventId)]).toEqual([200, [event.id]]);
  });

  it("as evaluate's declinedAtUtc: 400 naming the field, no order", async () => {
    const externalOrderId = `shop-${randomUUID()}`;
    const answer = await api('POST', '/v1/evaluate', {
      idempotencyKey: randomUUID(),
      externalOrderId,
      transaction: { amount: 2500, currency: 'USD', responseCode: '51', declinedAtUtc: '0000-01-01T00:00:00Z' },
      paymentMethod: { cardNumber: '4111111111111111', expiryMonth: 12, expiryYear: 2090 },
    });
    expect([answer.status, answer.body.error?.id, answer.body.error?.field]).toEqual([
      400,
      '400002',
      'transaction.declinedAtUtc',
    ]);
    expect(await stack.db('charges').where({ external_order_id: externalOrderId })).toEqual([]);
  });
});
