import { randomUUID } from 'node:crypto';
import { type Received, startReceiver } from '../../scripts/receivers/https-receiver';
import { callApi } from '../helpers/api-client';
import { eventually } from '../helpers/eventually';
import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { startTestStack, type TestStack } from '../helpers/stack';
import { LANGUAGES, missingTools, type PreparedVerifier, prepareVerifiers } from '../helpers/webhook-verifiers';

/**
 * A real order.completed, from evaluate through the outbox relay and the delivery workflow to a
 * real HTTPS receiver, verified by every merchant-language verifier of docs/webhooks.md that this
 * machine can run (test/api/webhook-verifier-languages.test.ts covers the vendor vector and the missing ones).
 */
describe('a real delivery verified in every merchant language', () => {
  let stack: TestStack;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let secret: string;
  let delivered: Received;
  let verifiers: PreparedVerifier[] = [];
  let cleanup: () => void = () => {};

  beforeAll(async () => {
    const prepared = prepareVerifiers(LANGUAGES.filter((l) => missingTools(l).length === 0));
    stack = await startTestStack();
    const merchant = await seedMerchant(stack.db);
    const token = await accessToken(stack.baseUrl, await seedKey(stack.db, merchant));
    receiver = await startReceiver(200);
    const created = await callApi(stack.baseUrl, token, 'POST', '/v1/webhooks', {
      url: receiver.url,
      events: ['order.completed'],
    });
    secret = created.body.secret;
    const { body: order } = await callApi(stack.baseUrl, token, 'POST', '/v1/evaluate', {
      idempotencyKey: randomUUID(),
      externalOrderId: `boutique-${randomUUID()}`,
      transaction: { amount: 1500, currency: 'USD', responseCode: '51' },
      paymentMethod: { cardNumber: '4111111111111111', expiryMonth: 12, expiryYear: 2090 },
    });
    const wanted = (r: { body: string }) => JSON.parse(r.body).OrderId === order.orderId;
    delivered = await eventually(
      async () => receiver.received.filter(wanted),
      (found) => found.length > 0,
      { describe: `the order.completed of ${order.orderId} at the receiver`, timeoutMs: 20_000 },
    ).then(([first]) => first as (typeof receiver.received)[number]);
    ({ prepared: verifiers, cleanup } = await prepared);
  }, 120_000);
  afterAll(async () => {
    cleanup();
    await receiver?.stop();
    await stack?.stop();
  });

  it('each verifier accepts it for the endpoint host, and rejects it for another host or with a replaced body', async () => {
    const c = { body: delivered.body, headers: delivered.headers, secretBase64: secret, host: receiver.host };
    const verdicts = await Promise.all(
      verifiers.map(async (v) => [
        v.language,
        await v.verify(c),
        await v.verify({ ...c, host: 'shop.example.com' }),
        await v.verify({ ...c, body: c.body.replace('order.completed', 'order.refunded') }),
      ]),
    );
    expect(verdicts).toEqual(verifiers.map((v) => [v.language, 'ok', 'fail', 'fail']));
    expect(verifiers.map((v) => v.language)).toContain('Node');
  });
});
