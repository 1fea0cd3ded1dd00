import { randomUUID } from 'node:crypto';
import { callApi } from '../helpers/api-client';
import { accessToken } from '../helpers/fixtures';
import { startTestStack, type TestStack } from '../helpers/stack';

const ADMIN = `admin-${randomUUID()}-${randomUUID()}`;
const VAULT_KEYS = `live-onboarding-1:${Buffer.alloc(32, 7).toString('base64')}`;

/**
 * What changes in production (docs/go-live.md), onboarding over HTTP: live secrets
 * (`sk_live_`, `tk_live_`), a sandbox test card refused with 400014 while a real card is vaulted,
 * and application events with IsTestMode false.
 */
describe('onboarding in production', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack({
      env: { FC_ENVIRONMENT: 'production', CARD_VAULT_KEYS: VAULT_KEYS, ADMIN_API_TOKEN: ADMIN },
    });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const call = (token: string, method: string, path: string, body?: unknown) =>
    callApi(stack.baseUrl, token, method, path, body);
  const tokenize = (key: string, cardNumber: string) =>
    fetch(`${stack.baseUrl}/v1/tokenize`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-tokenization-key': key },
      body: JSON.stringify({ cardNumber, expiryMonth: 12, expiryYear: new Date().getUTCFullYear() + 2 }),
    });

  it('issues live secrets, refuses sandbox test cards and vaults real ones', async () => {
    const partner = await call(ADMIN, 'POST', '/v1/admin/partners', { name: 'Live partner' });
    expect(partner.body.apiKey.secret).toMatch(/^sk_live_/);
    const token = await accessToken(stack.baseUrl, {
      clientId: partner.body.apiKey.clientId,
      clientSecret: partner.body.apiKey.secret,
    });
    const app = await call(token, 'POST', '/v1/applications', {
      business: { legalName: 'Live Shop', contactEmail: 'ops@live.example', siteOrigins: ['https://live.example'] },
    });
    for (const [who, path] of [
      [token, `/v1/applications/${app.body.id}/submit`],
      [ADMIN, `/v1/admin/applications/${app.body.id}/approve`],
    ] as const) {
      expect((await call(who, 'POST', path, {})).status).toBe(200);
    }
    const converted = await call(ADMIN, 'POST', `/v1/admin/applications/${app.body.id}/convert`, {});
    const { mid, tokenizationKey } = converted.body.merchant;
    expect(tokenizationKey.key).toMatch(/^tk_live_/);
    const another = await call(token, 'POST', `/v1/merchants/${mid}/tokenization-keys`, {});
    expect(another.body.key).toMatch(/^tk_live_/);

    const before = Number((await stack.db('card_vault').count({ n: '*' }))[0]?.n);
    for (const testCard of ['4111111111111111', '4000000000000002']) {
      const refused = await tokenize(tokenizationKey.key, testCard);
      const body = (await refused.json()) as { error: { id: string; field: string } };
      expect([testCard, refused.status, body.error.id, body.error.field]).toEqual([
        testCard,
        400,
        '400014',
        'cardNumber',
      ]);
    }
    expect(Number((await stack.db('card_vault').count({ n: '*' }))[0]?.n)).toBe(before);
    expect((await tokenize(tokenizationKey.key, '5555555555554444')).status).toBe(201);

    const events = await stack.db('events').where({ partner_id: partner.body.pid }).select('name', 'is_test_mode');
    expect(events.map((e) => e.name).sort()).toEqual(
      ['application.approved', 'application.converted', 'application.submitted'].sort(),
    );
    expect(events.every((e) => e.is_test_mode === false)).toBe(true);
  });
});
