import { randomUUID } from 'node:crypto';
import { callApi } from '../helpers/api-client';
import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { startTestStack, type TestStack } from '../helpers/stack';

const HOUR = 3_600_000;

/**
 * A card number on evaluate at its expiry month's end (src/domain/cards.ts,
 * EVALUATE_EXPIRY_GRACE_MS): an evaluate sent just before the month ended and retried under its
 * key just after replays its answer, and the card is refused as expired a day later.
 */
describe("evaluate with a card number at its expiry month's end", () => {
  let stack: TestStack;
  let merchantKey: Awaited<ReturnType<typeof seedKey>>;

  beforeAll(async () => {
    stack = await startTestStack();
    stack.clock.pause(); // only advance() moves the API's clock
    merchantKey = await seedKey(stack.db, await seedMerchant(stack.db));
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const evaluate = async (body: object) =>
    callApi(stack.baseUrl, await accessToken(stack.baseUrl, merchantKey), 'POST', '/v1/evaluate', body);

  it('replays a retry from just after the month ended, charges the card that day, refuses it a day on', async () => {
    // The API's clock to 23:59 on the last day of this month; the card expires with the month.
    const now = stack.clock.now();
    const [year, month] = [now.getUTCFullYear(), now.getUTCMonth()];
    const monthEnd = Date.UTC(year, month + 1, 1);
    stack.clock.advance(monthEnd - 60_000 - now.getTime());
    const card = { cardNumber: '4111111111111111', expiryMonth: month + 1, expiryYear: year };
    const body = (idempotencyKey: string) => ({
      idempotencyKey,
      externalOrderId: `shop-${randomUUID()}`,
      transaction: { amount: 2500, currency: 'USD', responseCode: '51' },
      paymentMethod: card,
    });
    const first = body(randomUUID());
    const answered = await evaluate(first);
    expect([answered.status, answered.body.outcome]).toEqual([200, 'APPROVED']);

    // Two minutes on the card has expired (UTC): the same request under its key is the first's answer.
    stack.clock.advance(2 * 60_000);
    const retried = await evaluate(first);
    expect([retried.status, retried.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    expect(retried.text).toBe(answered.text);
    // A new evaluate that day still reaches the processor (the issuer's own day may not have ended).
    expect((await evaluate(body(randomUUID()))).status).toBe(200);

    // A day after the month ended: refused before anything is charged.
    stack.clock.advance(24 * HOUR);
    const late = await evaluate(body(randomUUID()));
    expect([late.status, late.body.error?.id, late.body.error?.field]).toEqual([
      400,
      '400012',
      'paymentMethod.expiryYear',
    ]);
  });
});
