import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { startTestStack, type TestStack } from '../helpers/stack';

/** Phrases of zod's default messages: an answer that shows one leaked the validator's wording. */
const ZOD_DEFAULTS =
  /Invalid input|Invalid option|Too (big|small)|expected \w+, received|Invalid (UUID|email|URL|ISO|string)|Unrecognized key/;

/**
 * Every validation problem in plain words (src/api/validation-messages.ts): bad requests to the
 * main endpoints, through the real API, answer 400 `400002` naming the field, and no message in
 * them is one of zod's defaults.
 */
describe('validation messages through the real API', () => {
  let stack: TestStack;
  let token: string;
  let tokenizationKey: string;
  let mid: string;

  beforeAll(async () => {
    stack = await startTestStack();
    const merchant = await seedMerchant(stack.db);
    mid = merchant.mid;
    tokenizationKey = merchant.tokenizationKey;
    token = await accessToken(stack.baseUrl, await seedKey(stack.db, merchant));
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const send = async (method: string, path: string, body: unknown, byTokenizationKey: boolean) => {
    const credential: Record<string, string> = byTokenizationKey
      ? { 'x-tokenization-key': tokenizationKey }
      : { authorization: `Bearer ${token}` };
    const res = await fetch(`${stack.baseUrl}${path}`, {
      method,
      headers: { ...credential, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return {
      status: res.status,
      body: (await res.json()) as {
        error: { id: string; field?: string; problems: Array<{ field: string; message: string }> };
      },
    };
  };

  it('answers 400002 with the field and human wording, never zod defaults', async () => {
    const cases: Array<[string, string, unknown, string, boolean?]> = [
      ['POST', '/v1/evaluate', {}, 'transaction'],
      [
        'POST',
        '/v1/evaluate',
        {
          idempotencyKey: crypto.randomUUID(),
          externalOrderId: 'o-1',
          transaction: { amount: 'ten', currency: 'USD' },
          paymentMethod: { cardNumber: '4111111111111111', expiryMonth: 13, expiryYear: 2030 },
        },
        'transaction.amount',
      ],
      ['POST', '/v1/tokenize', { cardNumber: 4111, expiryMonth: 1.5 }, 'cardNumber', true],
      ['POST', '/v1/webhooks', { url: 3, events: 'order.completed' }, 'url'],
      ['PUT', `/v1/merchants/${mid}/settings`, { mitEvaluation: 'later', captureWindowMinutes: 0 }, 'mitEvaluation'],
      ['POST', '/v1/api-keys', { mid, name: '', scopes: ['everything'], extra: true }, 'name'],
      ['POST', `/v1/merchants/${mid}/sites`, { name: 'Shop', allowedOrigins: [] }, 'allowedOrigins'],
    ];
    for (const [method, path, body, field, byTokenizationKey = false] of cases) {
      const res = await send(method, path, body, byTokenizationKey);
      expect([path, res.status, res.body.error.id]).toEqual([path, 400, '400002']);
      expect(res.body.error.problems.map((p) => p.field)).toContain(field);
      expect(JSON.stringify(res.body)).not.toMatch(ZOD_DEFAULTS);
    }
  });
});
