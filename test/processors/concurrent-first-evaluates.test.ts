import { randomUUID } from 'node:crypto';
import { type ApiAnswer, callApi } from '../helpers/api-client';
import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { startTestStack, type TestStack } from '../helpers/stack';
import { type CardNetwork, startCardNetwork } from './harness/card-network';
import { BEHAVIOURS, CARDS, TEST_VAULT_KEYS } from './harness/cards';
import { type StripeMock, startStripeMock } from './harness/stripe-mock';

const nextYear = new Date().getUTCFullYear() + 1;

/**
 * One externalOrderId, many first evaluates at once, each with its own amount: the order's
 * workflow decides one of them, and every other caller is told its payment is not that order's
 * (409 `409010`), never "APPROVED" for an amount nobody charged. Real API, worker, Temporal dev
 * server and Postgres; Stripe is stripe-mock behind the card-network simulator, which counts the
 * charges made.
 */
describe('concurrent first evaluates of one externalOrderId with different amounts', () => {
  jest.setTimeout(120_000);
  let stripeMock: StripeMock;
  let network: CardNetwork;
  let stack: TestStack;
  let token: string;

  beforeAll(async () => {
    stripeMock = await startStripeMock();
    network = await startCardNetwork(stripeMock.url, BEHAVIOURS);
    stack = await startTestStack({
      env: {
        FC_ENVIRONMENT: 'production',
        CARD_VAULT_KEYS: TEST_VAULT_KEYS,
        STRIPE_SECRET_KEY: 'sk_test_processors',
        STRIPE_API_BASE: network.url,
      },
    });
    const merchant = await seedMerchant(stack.db);
    token = await accessToken(stack.baseUrl, await seedKey(stack.db, merchant));
    const settings = await callApi(stack.baseUrl, token, 'PUT', `/v1/merchants/${merchant.mid}/settings`, {
      processor: 'stripe',
    });
    expect(settings.body).toMatchObject({ processor: 'stripe' });
  });
  afterAll(async () => {
    await stack?.stop();
    await network?.stop();
    await stripeMock?.stop();
  });

  /** 20 first evaluates of one new externalOrderId at once, amounts 1000..1019; the one answered 200. */
  async function twentyAtOnce(card: string, more: Record<string, unknown> = {}) {
    const externalOrderId = `shop-${randomUUID()}`;
    const amounts = Array.from({ length: 20 }, (_, i) => 1000 + i);
    const answers: Array<{ amount: number; answer: ApiAnswer }> = await Promise.all(
      amounts.map(async (amount) => ({
        amount,
        answer: await callApi(stack.baseUrl, token, 'POST', '/v1/evaluate', {
          idempotencyKey: randomUUID(),
          externalOrderId,
          transaction: { amount, currency: 'USD', responseCode: '51' },
          paymentMethod: { cardNumber: card, expiryMonth: 12, expiryYear: nextYear },
          ...more,
        }),
      })),
    );
    const answered = answers.filter((a) => a.answer.status === 200);
    const refused = answers.filter((a) => a.answer.status !== 200);
    expect(answered).toHaveLength(1);
    const winner = answered[0] as { amount: number; answer: ApiAnswer };
    expect(refused.map((a) => [a.answer.status, a.answer.body?.error?.id])).toEqual(
      refused.map(() => [409, expect.stringMatching(/^409(010|003)$/)]),
    );
    for (const { answer } of refused.filter((a) => a.answer.body?.error?.id === '409010')) {
      expect(answer.body.error).toMatchObject({ orderId: winner.answer.body.orderId });
    }
    const rows = await stack
      .db('orders')
      .where({ external_order_id: externalOrderId })
      .count<{ n: string }[]>('* as n');
    expect(Number(rows[0]?.n)).toBe(1);
    const order = await callApi(stack.baseUrl, token, 'GET', `/v1/orders/${winner.answer.body.orderId}`);
    expect(order.body).toMatchObject({ externalOrderId, amounts: { requested: winner.amount } });
    return { winner, order: order.body };
  }

  it('CIT (the run closes at once): one 200 for its own amount, 19 × 409, one order, one charge', async () => {
    const { winner, order } = await twentyAtOnce(CARDS.approves);
    expect(winner.answer.body).toMatchObject({ outcome: 'APPROVED', orderStatusName: 'Completed' });
    expect(order).toMatchObject({ amounts: { captured: winner.amount } });
    expect(network.charges(CARDS.approves)).toBe(1);
  });

  it('async MIT (the run stays open): one SUBMITTED for its own amount, 19 × 409, nothing charged yet', async () => {
    const { winner, order } = await twentyAtOnce(CARDS.softThenApproves, { isMIT: true, isRecurring: false });
    expect(winner.answer.body).toMatchObject({ outcome: 'SUBMITTED', orderStatusName: 'Processing' });
    expect(order).toMatchObject({ statusName: 'PROCESSING' });
    expect(network.charges(CARDS.softThenApproves)).toBe(0);
  });
});
