import { randomUUID } from 'node:crypto';
import { loadConfig } from '../../src/config';
import { seedKey, seedMerchant } from '../helpers/fixtures';
import { requestFrom, type SourcedAnswer } from '../helpers/from-address';
import { startTestStack, type TestStack } from '../helpers/stack';

/**
 * No one locks a merchant out by failing in its name (docs/rate-limits.md, "Credentials first"):
 * a client_id is no secret and tokenization keys sit in web pages, so failures are limited per
 * source, after the credential is checked, and a right credential meets only its own budget.
 * The API's clock is paused: bucket refills happen only when the test moves time.
 */

const FAILURE_BURST = 10;
const nextYear = new Date().getUTCFullYear() + 1;
const card = { cardNumber: '4111111111111111', expiryMonth: 12, expiryYear: nextYear };

describe('credentials first: failures are limited per source, and never refuse a right credential', () => {
  let stack: TestStack;
  // The shipped payments budget (a verified client's token budget too); few failures per source.
  const payments = loadConfig({}).rateLimit;

  beforeAll(async () => {
    stack = await startTestStack({
      env: {
        RATE_LIMIT_BURST: String(payments.burst),
        RATE_LIMIT_PER_SECOND: String(payments.perSecond),
        OPEN_RATE_LIMIT_BURST: String(FAILURE_BURST),
        OPEN_RATE_LIMIT_PER_SECOND: '1',
      },
    });
    stack.clock.pause();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const tokenRequest = (source: string, clientId: string, secret: string) =>
    requestFrom(source, `${stack.baseUrl}/v1/oauth2/token`, {
      body: { grant_type: 'client_credentials', client_id: clientId, client_secret: secret },
    });
  // The token endpoint's 401 keeps the RFC 6749 shape: its error id is at the top.
  const idOf = (answer: SourcedAnswer) =>
    typeof answer.body?.error === 'object' ? answer.body.error.id : answer.body?.id;

  /** Failures from `source` until its budget is spent: the first FAILURE_BURST answer `failed`, the rest 429. */
  const expectFailureBudgetSpent = (answers: SourcedAnswer[], failed: string) => {
    expect(answers.slice(0, FAILURE_BURST).map(idOf)).toEqual(Array(FAILURE_BURST).fill(failed));
    expect(answers.slice(FAILURE_BURST).map(idOf)).toEqual(Array(answers.length - FAILURE_BURST).fill('429001'));
    const refused = answers.at(-1) as SourcedAnswer;
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.headers['ratelimit-limit']).toBe(String(FAILURE_BURST));
    expect(refused.headers['ratelimit-remaining']).toBe('0');
  };

  it('gives the right secret its token after 25 wrong ones under its client_id, from any address', async () => {
    const m = await seedMerchant(stack.db);
    const key = await seedKey(stack.db, m);
    const attacker = '127.0.0.2';
    const wrong = [];
    for (let i = 0; i < 25; i++) wrong.push(await tokenRequest(attacker, key.clientId, `sk_sandbox_guess_${i}`));
    expectFailureBudgetSpent(wrong, '401001');
    // Another spelling of the path is the same route under the same budget, or no route at all.
    const body = { grant_type: 'client_credentials', client_id: key.clientId, client_secret: 'sk_sandbox_x' };
    for (const path of ['/v1/oauth2/token/', '/v1//oauth2/token']) {
      expect(idOf(await requestFrom(attacker, `${stack.baseUrl}${path}`, { body }))).toBe('429001');
    }
    expect(idOf(await requestFrom('127.0.0.5', `${stack.baseUrl}/V1/OAUTH2/TOKEN`, { body }))).toBe('404001');

    const right = await tokenRequest('127.0.0.3', key.clientId, key.clientSecret);
    expect(right.status).toBe(200);
    expect(right.body.access_token).toMatch(/^at_/);
    expect(right.headers['ratelimit-limit']).toBe(String(payments.burst)); // the client's own budget
    // Even from the failing address, in either dialect: the failure budget counts failures only.
    expect((await tokenRequest(attacker, key.clientId, key.clientSecret)).status).toBe(200);
    const vendor = await requestFrom(attacker, `${stack.baseUrl}/v1/oauth2/token`, {
      body: { AppKey: key.clientId, AppSecret: key.clientSecret },
    });
    expect([vendor.status, vendor.body.success]).toEqual([200, true]);
    // Another address's failure is its own: 401, not the attacker's 429.
    expect(idOf(await tokenRequest('127.0.0.4', key.clientId, 'sk_sandbox_typo'))).toBe('401001');

    // A wrong secret every second keeps the attacker refused, and the merchant served.
    for (let second = 0; second < 10; second++) {
      stack.clock.advance(1_000);
      expect((await tokenRequest(attacker, key.clientId, 'sk_sandbox_again')).status).toBe(401); // refilled 1/s
      expect((await tokenRequest(attacker, key.clientId, 'sk_sandbox_again')).status).toBe(429);
      expect((await tokenRequest('127.0.0.3', key.clientId, key.clientSecret)).status).toBe(200);
    }
  });

  it('serves a client that fetches a new token for each of 10 payments a second for 30 s', async () => {
    const m = await seedMerchant(stack.db);
    const key = await seedKey(stack.db, m);
    const source = '127.0.0.5';
    const refused: string[] = [];
    // Each payment as plain ActiveMerchant makes it: a new token, then evaluate with it. Ten
    // payments at once each second of the API's clock, 300 in all.
    for (let second = 0; second < 30; second++) {
      await Promise.all(
        Array.from({ length: 10 }, async (_, n) => {
          const token = await tokenRequest(source, key.clientId, key.clientSecret);
          if (token.status !== 200) return refused.push(`${second}.${n} token ${token.status}`);
          const evaluate = await requestFrom(source, `${stack.baseUrl}/v1/evaluate`, {
            headers: { authorization: `Bearer ${token.body.access_token}` },
            body: {
              idempotencyKey: randomUUID(),
              externalOrderId: `shop-${randomUUID()}`,
              transaction: { amount: 2500, currency: 'USD', responseCode: '51' },
              paymentMethod: card,
            },
          });
          if (evaluate.status !== 200) refused.push(`${second}.${n} evaluate ${evaluate.status}`);
        }),
      );
      stack.clock.advance(1_000);
    }
    expect(refused).toEqual([]);
    const [orders] = await stack.db('orders').where({ merchant_id: m.mid }).count<{ n: string }[]>('* as n');
    expect(Number(orders?.n)).toBe(300);
  }, 180_000);

  const tokenize = (source: string, key: string) =>
    requestFrom(source, `${stack.baseUrl}/v1/tokenize`, { headers: { 'x-tokenization-key': key }, body: card });

  it('accepts the valid tokenization key from an address that flooded bad ones, and refuses the bad ones', async () => {
    const m = await seedMerchant(stack.db);
    const source = '127.0.0.6';
    const bad = [];
    for (let i = 0; i < 25; i++) bad.push(await tokenize(source, `tk_sandbox_bad_${i}`));
    expectFailureBudgetSpent(bad, '401004');

    const valid = await tokenize(source, m.tokenizationKey);
    expect(valid.status).toBe(201);
    expect(valid.body).toMatchObject({ brand: 'visa', last4: '1111' });
    expect(valid.headers['ratelimit-limit']).toBe(String(payments.burst)); // the merchant's budget
    expect(idOf(await tokenize(source, 'tk_sandbox_bad_again'))).toBe('429001');
    expect(idOf(await tokenize('127.0.0.7', 'tk_sandbox_bad_elsewhere'))).toBe('401004');
  });

  it("a flood of valid tokenizations from one address spends neither the payments budget nor others' tokenize", async () => {
    const m = await seedMerchant(stack.db);
    const key = await seedKey(stack.db, m);
    const flooder = '127.0.0.9';
    const flood = [];
    for (let i = 0; i <= payments.burst; i++) flood.push(await tokenize(flooder, m.tokenizationKey));
    expect(flood.slice(0, payments.burst).map((a) => a.status)).toEqual(Array(payments.burst).fill(201));
    expect([flood.at(-1)?.status, idOf(flood.at(-1) as SourcedAnswer)]).toEqual([429, '429001']);
    // The merchant's checkout page elsewhere still tokenizes, and its backend still evaluates.
    expect((await tokenize('127.0.0.10', m.tokenizationKey)).status).toBe(201);
    const token = (await tokenRequest('127.0.0.10', key.clientId, key.clientSecret)).body.access_token;
    const evaluated = await requestFrom('127.0.0.10', `${stack.baseUrl}/v1/evaluate`, {
      headers: { authorization: `Bearer ${token}` },
      body: {
        idempotencyKey: randomUUID(),
        externalOrderId: `shop-${randomUUID()}`,
        transaction: { amount: 2500, currency: 'USD', responseCode: '51' },
        paymentMethod: card,
      },
    });
    expect([evaluated.status, evaluated.body.outcome]).toEqual([200, 'APPROVED']);
    expect(evaluated.headers['ratelimit-remaining']).toBe(String(payments.burst - 1));
  });

  it("takes a known challenge session key from an address that flooded unknown ones: the order's answer", async () => {
    const m = await seedMerchant(stack.db);
    const key = await seedKey(stack.db, m);
    const source = '127.0.0.8';
    const token = (await tokenRequest(source, key.clientId, key.clientSecret)).body.access_token;
    const challenge = await requestFrom(source, `${stack.baseUrl}/v1/evaluate`, {
      headers: { authorization: `Bearer ${token}` },
      body: {
        idempotencyKey: randomUUID(),
        externalOrderId: `shop-${randomUUID()}`,
        transaction: { amount: 2500, currency: 'USD', responseCode: '51' },
        paymentMethod: { ...card, cardNumber: '4000000000003220' }, // the sandbox's challenge card
      },
    });
    expect(challenge.body.outcome).toBe('CHALLENGE');

    const unknown = [];
    for (let i = 0; i < 15; i++) {
      unknown.push(await requestFrom(source, `${stack.baseUrl}/v1/challenges/${randomUUID()}/passed`, { body: {} }));
    }
    expectFailureBudgetSpent(unknown, '404003');

    const passed = await requestFrom(
      source,
      `${stack.baseUrl}/v1/challenges/${challenge.body.orderSessionKey}/passed`,
      { body: {} },
    );
    expect(passed.status).toBe(200);
    expect(passed.body.orderId).toBe(challenge.body.orderId);
  });
});
