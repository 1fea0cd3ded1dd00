import { randomUUID } from 'node:crypto';
import { hashSecret } from '../../src/domain/secrets';
import { callApi } from '../helpers/api-client';
import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { startTestStack, type TestStack } from '../helpers/stack';

const ADMIN = `admin-${randomUUID()}-${randomUUID()}`;
const nextYear = new Date().getUTCFullYear() + 1;
const card = { cardNumber: '4111111111111111', expiryMonth: 12, expiryYear: nextYear };

/**
 * Onboarding without the database (issue 15): the back office creates a partner with its first
 * API key; conversion issues the new merchant's site and tokenization key; tokenization keys are
 * created, listed and revoked through the API, each merchant's apart; a site's allowed origins
 * change through the API and the widget's origin check follows. Bad input is a 400 that stores
 * nothing.
 */
describe('onboarding through the API', () => {
  let stack: TestStack;
  let alpha: Awaited<ReturnType<typeof seedMerchant>>; // partner P1's merchant
  let beta: Awaited<ReturnType<typeof seedMerchant>>; // another merchant of P1
  let gamma: Awaited<ReturnType<typeof seedMerchant>>; // partner P2's merchant
  const tokens: Record<'alpha' | 'beta' | 'partner' | 'otherPartner' | 'alphaNoKeys', string> = {} as never;

  beforeAll(async () => {
    stack = await startTestStack({ env: { ADMIN_API_TOKEN: ADMIN } });
    alpha = await seedMerchant(stack.db);
    beta = await seedMerchant(stack.db, alpha.pid);
    gamma = await seedMerchant(stack.db);
    const token = async (owner: { pid: string; mid?: string }, scopes?: Parameters<typeof seedKey>[2]) =>
      accessToken(stack.baseUrl, await seedKey(stack.db, owner, scopes));
    tokens.alpha = await token(alpha);
    tokens.beta = await token(beta);
    tokens.partner = await token({ pid: alpha.pid });
    tokens.otherPartner = await token({ pid: gamma.pid });
    tokens.alphaNoKeys = await token(alpha, ['payments', 'settings']);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const call = (token: string | undefined, method: string, path: string, body?: unknown) =>
    callApi(stack.baseUrl, token, method, path, body);
  const tokenize = async (key: string) =>
    (
      await fetch(`${stack.baseUrl}/v1/tokenize`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-tokenization-key': key },
        body: JSON.stringify(card),
      })
    ).status;
  const count = async (table: string) => Number((await stack.db(table).count({ n: '*' }))[0]?.n);
  const snapshot = async (table: string) =>
    JSON.stringify(await stack.db(table).select('*').orderBy('id'), (_k, v) => (v instanceof Date ? v.getTime() : v));

  describe('the back office creates a partner with its first API key', () => {
    it('refuses without the operator credential, and on bad input, creating nothing', async () => {
      const before = [await count('partners'), await count('api_keys')];
      const none = await call(undefined, 'POST', '/v1/admin/partners', { name: 'Acme Payments' });
      expect([none.status, none.body.error.id]).toEqual([401, '401010']);
      const partnerKey = await call(tokens.partner, 'POST', '/v1/admin/partners', { name: 'Acme Payments' });
      expect([partnerKey.status, partnerKey.body.error.id]).toEqual([401, '401010']);
      for (const body of [{}, { name: '' }, { name: 'x'.repeat(201) }, { name: 'Acme', apiKey: { name: '' } }]) {
        const res = await call(ADMIN, 'POST', '/v1/admin/partners', body);
        expect([JSON.stringify(body), res.status, res.body.error.id]).toEqual([JSON.stringify(body), 400, '400002']);
      }
      expect([await count('partners'), await count('api_keys')]).toEqual(before);
    });

    it('answers the secret once, stores only its hash, and the key acts for the new partner', async () => {
      const res = await call(ADMIN, 'POST', '/v1/admin/partners', { name: 'Acme Payments', apiKey: { name: 'ops' } });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        pid: expect.any(String),
        name: 'Acme Payments',
        apiKey: { ownerType: 'partner', pid: res.body.pid, mid: null, name: 'ops', status: 'active' },
      });
      const { clientId, secret } = res.body.apiKey;
      expect(secret).toMatch(/^sk_sandbox_/);
      const stored = await stack.db('api_keys').where({ id: clientId }).first();
      expect(stored?.secret_hash).toBe(hashSecret(secret));
      expect(JSON.stringify(stored)).not.toContain(secret);
      // The key's record never shows the secret again.
      const partnerToken = await accessToken(stack.baseUrl, { clientId, clientSecret: secret });
      const again = await call(partnerToken, 'GET', `/v1/api-keys/${clientId}`);
      expect(again.status).toBe(200);
      expect(again.text).not.toContain(secret);
      const application = await call(partnerToken, 'POST', '/v1/applications', {
        business: { legalName: 'Shop Ltd', contactEmail: 'ops@shop.example' },
      });
      expect([application.status, application.body.pid]).toEqual([201, res.body.pid]);
    });
  });

  it("a partner key without the settings scope reads and changes none of its partner's applications (403002)", async () => {
    const listener = await accessToken(stack.baseUrl, await seedKey(stack.db, { pid: alpha.pid }, ['webhooks']));
    const created = await call(tokens.partner, 'POST', '/v1/applications', {
      business: { legalName: 'Scoped Ltd', contactEmail: 'ops@scoped.example', website: 'https://scoped.example' },
    });
    expect(created.status).toBe(201);
    for (const [method, path] of [
      ['GET', '/v1/applications'],
      ['GET', `/v1/applications/${created.body.id}`],
      ['POST', `/v1/applications/${created.body.id}/cancel`],
    ] as const) {
      const refused = await call(listener, method, path, method === 'POST' ? {} : undefined);
      expect([method, path, refused.status, refused.body.error?.id]).toEqual([method, path, 403, '403002']);
    }
    expect((await call(tokens.partner, 'GET', `/v1/applications/${created.body.id}`)).body.status).toBe('DRAFT');
  });

  describe('conversion issues the new merchant its first site and tokenization key', () => {
    it('answers them once; the key tokenizes; the site allows the origins of the application', async () => {
      const created = await call(tokens.partner, 'POST', '/v1/applications', {
        business: {
          legalName: 'Shop Ltd',
          contactEmail: 'ops@shop.example',
          website: 'https://shop.example',
          siteOrigins: ['https://shop.example/checkout', 'https://shop.example', 'https://www.shop.example/'],
        },
      });
      const id = created.body.id as string;
      expect((await call(tokens.partner, 'POST', `/v1/applications/${id}/submit`, {})).status).toBe(200);
      const approved = await call(ADMIN, 'POST', `/v1/admin/applications/${id}/approve`, {});
      expect([approved.status, approved.body.merchant]).toEqual([200, undefined]);
      const converted = await call(ADMIN, 'POST', `/v1/admin/applications/${id}/convert`, {});
      expect(converted.status).toBe(200);
      const { mid, site, tokenizationKey } = converted.body.merchant;
      expect(converted.body).toMatchObject({ status: 'CONVERTED', mid });
      expect(site).toMatchObject({ mid, allowedOrigins: ['https://shop.example', 'https://www.shop.example'] });
      expect(tokenizationKey).toMatchObject({ mid, status: 'active', key: expect.stringMatching(/^tk_sandbox_/) });
      expect(await tokenize(tokenizationKey.key)).toBe(201);

      // Never again: the application and the key list show no key; the partner reaches both.
      const read = await call(tokens.partner, 'GET', `/v1/applications/${id}`);
      expect(read.text).not.toContain(tokenizationKey.key);
      const listed = await call(tokens.partner, 'GET', `/v1/merchants/${mid}/tokenization-keys`);
      expect(listed.body.data).toEqual([
        { ...tokenizationKey, key: undefined, keyHint: `...${tokenizationKey.key.slice(-4)}` },
      ]);
      expect(listed.text).not.toContain(tokenizationKey.key);
      const sites = await call(tokens.partner, 'GET', `/v1/merchants/${mid}/sites`);
      expect(sites.body.data).toEqual([site]);

      // Converting again is refused and issues nothing more.
      const again = await call(ADMIN, 'POST', `/v1/admin/applications/${id}/convert`, {});
      expect([again.status, again.body.error.id, again.body.merchant]).toEqual([409, '409020', undefined]);
      const countOf = async (table: string, where: Record<string, string>) =>
        Number((await stack.db(table).where(where).count({ n: '*' }))[0]?.n);
      expect(await countOf('tokenization_keys', { merchant_id: mid })).toBe(1);
      expect(await countOf('merchants', { partner_id: alpha.pid, name: 'Shop Ltd' })).toBe(1);
    });
  });

  describe('tokenization keys', () => {
    const keysOf = (mid: string) => `/v1/merchants/${mid}/tokenization-keys`;

    it('a merchant creates, lists and revokes its own; a revoked key stops tokenizing at once', async () => {
      const created = await call(tokens.alpha, 'POST', keysOf(alpha.mid), { name: 'checkout' });
      expect(created.status).toBe(201);
      expect(created.headers.get('location')).toBe(`${keysOf(alpha.mid)}/${created.body.id}`);
      expect(created.body).toMatchObject({ mid: alpha.mid, name: 'checkout', status: 'active', revokedAt: null });
      const { key, ...view } = created.body;
      expect(await tokenize(key)).toBe(201);
      expect((await stack.db('tokenization_keys').where({ id: view.id }).first())?.key_hash).toBe(hashSecret(key));

      const listed = await call(tokens.alpha, 'GET', keysOf(alpha.mid));
      expect(listed.body.data).toContainEqual(view);
      expect(listed.text).not.toContain(key);
      expect((await call(tokens.alpha, 'GET', `${keysOf(alpha.mid)}/${view.id}`)).body).toEqual(view);

      const revoked = await call(tokens.alpha, 'DELETE', `${keysOf(alpha.mid)}/${view.id}`);
      expect(revoked.status).toBe(200);
      expect(revoked.body).toMatchObject({ id: view.id, status: 'revoked', revokedAt: expect.any(String) });
      const tokenized = await fetch(`${stack.baseUrl}/v1/tokenize`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-tokenization-key': key },
        body: JSON.stringify(card),
      });
      expect([tokenized.status, ((await tokenized.json()) as { error: { id: string } }).error.id]).toEqual([
        401,
        '401004',
      ]);
      // Revoking again answers the same record; the first revocation time stays.
      const twice = await call(tokens.alpha, 'DELETE', `${keysOf(alpha.mid)}/${view.id}`);
      expect(twice.body).toEqual(revoked.body);
    });

    it('a partner creates, lists and revokes the keys of its merchants', async () => {
      const created = await call(tokens.partner, 'POST', keysOf(beta.mid), {});
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ mid: beta.mid, name: 'Tokenization key' });
      expect(await tokenize(created.body.key)).toBe(201);
      const listed = await call(tokens.partner, 'GET', keysOf(beta.mid));
      expect(listed.body.data.map((k: { id: string }) => k.id)).toContain(created.body.id);
      const revoked = await call(tokens.partner, 'DELETE', `${keysOf(beta.mid)}/${created.body.id}`);
      expect(revoked.body.status).toBe('revoked');
      expect(await tokenize(created.body.key)).toBe(401);
    });

    it("never sees, lists, creates or revokes another merchant's or partner's keys", async () => {
      const betaKey = (await call(tokens.beta, 'POST', keysOf(beta.mid), { name: 'beta' })).body;
      const before = await snapshot('tokenization_keys');
      const refusals = [
        // Another merchant of the same partner: 403 on its merchant, 404 for its key under one's own.
        [tokens.alpha, 'GET', keysOf(beta.mid), 403, '403001'],
        [tokens.alpha, 'POST', keysOf(beta.mid), 403, '403001'],
        [tokens.alpha, 'DELETE', `${keysOf(beta.mid)}/${betaKey.id}`, 403, '403001'],
        [tokens.alpha, 'GET', `${keysOf(alpha.mid)}/${betaKey.id}`, 404, '404023'],
        [tokens.alpha, 'DELETE', `${keysOf(alpha.mid)}/${betaKey.id}`, 404, '404023'],
        // Another partner's merchant.
        [tokens.otherPartner, 'GET', keysOf(beta.mid), 403, '403001'],
        [tokens.otherPartner, 'DELETE', `${keysOf(beta.mid)}/${betaKey.id}`, 403, '403001'],
        [tokens.otherPartner, 'POST', keysOf(alpha.mid), 403, '403001'],
        // No such merchant, no such key, a key without the api_keys scope.
        [tokens.partner, 'GET', keysOf(randomUUID()), 403, '403001'],
        [tokens.partner, 'DELETE', `${keysOf(beta.mid)}/${randomUUID()}`, 404, '404023'],
        [tokens.partner, 'DELETE', `${keysOf(beta.mid)}/not-a-key`, 404, '404023'],
        [tokens.alphaNoKeys, 'GET', keysOf(alpha.mid), 403, '403002'],
        [tokens.alphaNoKeys, 'POST', keysOf(alpha.mid), 403, '403002'],
      ] as const;
      for (const [token, method, path, status, id] of refusals) {
        const res = await call(token, method, path, method === 'POST' ? {} : undefined);
        expect([method, path, res.status, res.body.error.id]).toEqual([method, path, status, id]);
      }
      // A partner's own merchant lists its own keys only.
      const own = await call(tokens.otherPartner, 'GET', keysOf(gamma.mid));
      expect(own.body.data.length).toBeGreaterThan(0);
      expect(own.body.data.filter((k: { mid: string }) => k.mid !== gamma.mid)).toEqual([]);
      expect(await snapshot('tokenization_keys')).toBe(before);
      expect([200, 201]).toContain(await tokenize(betaKey.key)); // 200: beta vaulted this card before
    });

    it('refuses a bad name with 400002 and issues nothing', async () => {
      const before = await count('tokenization_keys');
      for (const body of [{ name: '' }, { name: 'x'.repeat(101) }, { name: 7 }]) {
        const res = await call(tokens.alpha, 'POST', keysOf(alpha.mid), body);
        expect([res.status, res.body.error.id, res.body.error.field]).toEqual([400, '400002', 'name']);
      }
      expect(await count('tokenization_keys')).toBe(before);
    });
  });

  describe("a site's allowed origins", () => {
    let siteId: string;
    const sitePath = () => `/v1/merchants/${alpha.mid}/sites/${siteId}`;
    const widgetConfig = (origin: string) =>
      fetch(`${stack.baseUrl}/v1/widget/${alpha.mid}/${siteId}/config`, { headers: { origin } });

    beforeAll(async () => {
      const site = await call(tokens.alpha, 'POST', `/v1/merchants/${alpha.mid}/sites`, {
        name: 'Shop',
        allowedOrigins: ['https://shop.example'],
      });
      siteId = site.body.siteId;
    });

    it('changes through the API, and the widget accepts the new origins and refuses the old at once', async () => {
      expect((await widgetConfig('https://shop.example')).status).toBe(200);
      expect((await widgetConfig('https://new.example')).status).toBe(403);
      const res = await call(tokens.alpha, 'PUT', sitePath(), {
        allowedOrigins: ['https://new.example', 'http://localhost:8080'],
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        siteId,
        mid: alpha.mid,
        name: 'Shop',
        allowedOrigins: ['https://new.example', 'http://localhost:8080'],
      });
      expect((await call(tokens.alpha, 'GET', sitePath())).body).toEqual(res.body);
      const allowed = await widgetConfig('https://new.example');
      expect([allowed.status, allowed.headers.get('access-control-allow-origin')]).toEqual([
        200,
        'https://new.example',
      ]);
      const old = await widgetConfig('https://shop.example');
      expect([old.status, ((await old.json()) as { error: { id: string } }).error.id]).toEqual([403, '403010']);
      // Its partner may change it too; a rename keeps the origins.
      const renamed = await call(tokens.partner, 'PUT', sitePath(), { name: 'Shop EU' });
      expect(renamed.body).toMatchObject({ name: 'Shop EU', allowedOrigins: res.body.allowedOrigins });
    });

    it('refuses what is not an origin, and empty changes, with 400002, changing nothing', async () => {
      const before = await snapshot('sites');
      for (const allowedOrigins of [
        ['https://shop.example/'],
        ['https://shop.example/checkout'],
        ['http://shop.example'],
        ['shop.example'],
        ['https://shop.example?x=1'],
        [],
        Array.from({ length: 51 }, (_, i) => `https://s${i}.example`),
      ]) {
        const res = await call(tokens.alpha, 'PUT', sitePath(), { allowedOrigins });
        expect([allowedOrigins[0], res.status, res.body.error.id]).toEqual([allowedOrigins[0], 400, '400002']);
        expect(res.body.error.field).toMatch(/^allowedOrigins/);
      }
      for (const body of [{}, { name: '' }]) {
        const res = await call(tokens.alpha, 'PUT', sitePath(), body);
        expect([res.status, res.body.error.id]).toEqual([400, '400002']);
      }
      expect(await snapshot('sites')).toBe(before);
    });

    it("is another merchant's to change only when in reach", async () => {
      const before = await snapshot('sites');
      const change = { allowedOrigins: ['https://evil.example'] };
      const refusals = [
        [tokens.beta, `/v1/merchants/${alpha.mid}/sites/${siteId}`, 403, '403001'],
        [tokens.otherPartner, `/v1/merchants/${alpha.mid}/sites/${siteId}`, 403, '403001'],
        // Alpha's site under beta's MID: not beta's site.
        [tokens.beta, `/v1/merchants/${beta.mid}/sites/${siteId}`, 404, '404010'],
        [tokens.alpha, `/v1/merchants/${alpha.mid}/sites/${randomUUID()}`, 404, '404010'],
      ] as const;
      for (const [token, path, status, id] of refusals) {
        for (const [method, body] of [
          ['GET', undefined],
          ['PUT', change],
        ] as const) {
          const res = await call(token, method, path, body);
          expect([method, path, res.status, res.body.error.id]).toEqual([method, path, status, id]);
        }
      }
      expect(await snapshot('sites')).toBe(before);
    });
  });
});
