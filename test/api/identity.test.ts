import { randomUUID } from 'node:crypto';
import { revealCard } from '../../src/db/repositories/card-vault';
import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { startTestStack, type TestStack } from '../helpers/stack';

const HOUR = 3_600_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('identity and access through the real API', () => {
  let stack: TestStack;
  let partner: Awaited<ReturnType<typeof seedMerchant>>;
  let merchantKey: { clientId: string; clientSecret: string };
  const secretsSeen: string[] = [];

  beforeAll(async () => {
    stack = await startTestStack();
    partner = await seedMerchant(stack.db);
    merchantKey = await seedKey(stack.db, partner);
    secretsSeen.push(merchantKey.clientSecret, partner.tokenizationKey);
  });
  afterAll(async () => {
    // Whatever happened above, no secret, token or card number reached the log.
    const logs = stack.logs.text();
    for (const secret of secretsSeen) expect(logs).not.toContain(secret);
    for (const pan of ['4111111111111111', '4111111111111112', '5555555555554444', '4000000000000002']) {
      expect(logs).not.toContain(pan);
    }
    await stack?.stop();
  });

  const api = async (
    method: string,
    path: string,
    options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
  ) => {
    const res = await fetch(`${stack.baseUrl}${path}`, {
      method,
      headers: {
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...options.headers,
      },
      body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  };
  const remember = (secret: string) => {
    secretsSeen.push(secret);
    return secret;
  };

  describe('POST /v1/oauth2/token (client credentials)', () => {
    it('issues a bearer token from a JSON body, which then authenticates calls', async () => {
      const res = await api('POST', '/v1/oauth2/token', {
        body: {
          grant_type: 'client_credentials',
          client_id: merchantKey.clientId,
          client_secret: merchantKey.clientSecret,
        },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
      const token = remember(res.body.access_token);
      const settings = await api('GET', `/v1/merchants/${partner.mid}/settings`, { token });
      expect(settings.status).toBe(200);
    });

    it('accepts form encoding and HTTP Basic client authentication', async () => {
      const form = await fetch(`${stack.baseUrl}/v1/oauth2/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: merchantKey.clientId,
          client_secret: merchantKey.clientSecret,
        }),
      });
      expect(form.status).toBe(200);
      remember(((await form.json()) as { access_token: string }).access_token);
      const basic = await fetch(`${stack.baseUrl}/v1/oauth2/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${merchantKey.clientId}:${merchantKey.clientSecret}`).toString('base64')}`,
        },
        body: 'grant_type=client_credentials',
      });
      expect(basic.status).toBe(200);
      remember(((await basic.json()) as { access_token: string }).access_token);
    });

    it('answers HTTP Basic credentials that are not valid form-encoding with 401001, not a 500', async () => {
      for (const credentials of ['%zz:x', `${merchantKey.clientId}:%E0%A4%A`]) {
        const res = await fetch(`${stack.baseUrl}/v1/oauth2/token`, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            authorization: `Basic ${Buffer.from(credentials).toString('base64')}`,
          },
          body: 'grant_type=client_credentials',
        });
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toContain('Basic');
        expect(await res.json()).toMatchObject({ error: 'invalid_client', id: '401001' });
      }
    });

    it('answers a wrong secret with 401, the OAuth error field and 401001', async () => {
      const res = await api('POST', '/v1/oauth2/token', {
        body: { grant_type: 'client_credentials', client_id: merchantKey.clientId, client_secret: 'sk_sandbox_wrong' },
      });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ error: 'invalid_client', id: '401001', name: 'invalid_client' });
    });

    it('answers an unknown client with the same 401001, and a bad grant type with 400003', async () => {
      const unknown = await api('POST', '/v1/oauth2/token', {
        body: {
          grant_type: 'client_credentials',
          client_id: '00000000-0000-4000-8000-000000000000',
          client_secret: 'x',
        },
      });
      expect(unknown.status).toBe(401);
      expect(unknown.body.id).toBe('401001');
      const grant = await api('POST', '/v1/oauth2/token', {
        body: { grant_type: 'password', username: 'a', password: 'b' },
      });
      expect(grant.status).toBe(400);
      expect(grant.body).toMatchObject({ error: 'unsupported_grant_type', id: '400003' });
    });
  });

  describe('bearer authentication', () => {
    it('refuses a missing or unknown token with 401002 and a WWW-Authenticate challenge', async () => {
      const missing = await api('GET', `/v1/merchants/${partner.mid}/settings`);
      expect(missing.status).toBe(401);
      expect(missing.body.error.id).toBe('401002');
      expect(missing.headers.get('www-authenticate')).toContain('Bearer');
      const unknown = await api('GET', `/v1/merchants/${partner.mid}/settings`, { token: 'at_not-a-token' });
      expect(unknown.body.error.id).toBe('401002');
    });

    it('refuses an expired token with the distinct 401003, so clients refresh once', async () => {
      const token = remember(await accessToken(stack.baseUrl, merchantKey));
      expect((await api('GET', `/v1/merchants/${partner.mid}/settings`, { token })).status).toBe(200);
      stack.clock.advance(HOUR + 1000);
      const expired = await api('GET', `/v1/merchants/${partner.mid}/settings`, { token });
      expect(expired.status).toBe(401);
      expect(expired.body.error).toMatchObject({ id: '401003', name: 'token_expired' });
      const fresh = remember(await accessToken(stack.baseUrl, merchantKey));
      expect((await api('GET', `/v1/merchants/${partner.mid}/settings`, { token: fresh })).status).toBe(200);
    });
  });

  describe('API keys', () => {
    it('creates a key (201, secret shown once), reads it without the secret, lists it by mid', async () => {
      const token = remember(await accessToken(stack.baseUrl, merchantKey));
      const created = await api('POST', '/v1/api-keys', {
        token,
        body: { name: 'checkout', description: 'web checkout' },
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        clientId: created.body.id,
        mid: partner.mid,
        name: 'checkout',
        status: 'active',
      });
      expect(created.body.id).toMatch(UUID);
      const secret = remember(created.body.secret);
      expect(secret).toMatch(/^sk_sandbox_/);

      const read = await api('GET', `/v1/api-keys/${created.body.id}`, { token });
      expect(read.status).toBe(200);
      expect(read.body.secret).toBeUndefined();
      expect(JSON.stringify(read.body)).not.toContain(secret);
      expect(read.body.secretHint).toBe(`...${secret.slice(-4)}`);

      const list = await api('GET', `/v1/api-keys?mid=${partner.mid}`, { token });
      expect(list.status).toBe(200);
      expect(list.body.data.map((k: { id: string }) => k.id)).toContain(created.body.id);
      expect((await api('GET', '/v1/api-keys', { token })).body.error).toMatchObject({ id: '400002', field: 'mid' });
      expect((await api('POST', '/v1/api-keys', { token, body: {} })).body.error).toMatchObject({
        id: '400002',
        field: 'name',
      });
    });

    it('rotates a secret: the old one works inside the grace period and stops after it', async () => {
      const token = remember(await accessToken(stack.baseUrl, merchantKey));
      const created = await api('POST', '/v1/api-keys', { token, body: { name: 'rotating' } });
      const oldSecret = remember(created.body.secret);
      const rotated = await api('PUT', `/v1/api-keys/${created.body.id}`, { token, body: { rotateSecret: true } });
      expect(rotated.status).toBe(200);
      const newSecret = remember(rotated.body.secret);
      expect(newSecret).not.toBe(oldSecret);
      const grace = Date.parse(rotated.body.previousSecretExpiresAt) - stack.clock.now().getTime();
      expect(grace).toBeLessThanOrEqual(24 * HOUR);
      expect(grace).toBeGreaterThan(24 * HOUR - 5_000);

      const grant = (secret: string) =>
        api('POST', '/v1/oauth2/token', {
          body: { grant_type: 'client_credentials', client_id: created.body.id, client_secret: secret },
        });
      stack.clock.advance(23 * HOUR);
      expect((await grant(oldSecret)).status).toBe(200);
      expect((await grant(newSecret)).status).toBe(200);
      stack.clock.advance(2 * HOUR);
      const late = await grant(oldSecret);
      expect(late.status).toBe(401);
      expect(late.body.id).toBe('401001');
      expect((await grant(newSecret)).status).toBe(200);
    });

    it('updates name, description and scopes; an empty update is 400', async () => {
      const token = remember(await accessToken(stack.baseUrl, merchantKey));
      const created = await api('POST', '/v1/api-keys', { token, body: { name: 'before' } });
      remember(created.body.secret);
      const updated = await api('PUT', `/v1/api-keys/${created.body.id}`, {
        token,
        body: { name: 'after', description: null, scopes: ['payments'] },
      });
      expect(updated.body).toMatchObject({ name: 'after', description: null, scopes: ['payments'] });
      expect(updated.body.secret).toBeUndefined();
      expect((await api('PUT', `/v1/api-keys/${created.body.id}`, { token, body: {} })).status).toBe(400);
    });

    it('revokes a key at once (200 with a JSON body): its secret and its tokens stop working', async () => {
      const token = remember(await accessToken(stack.baseUrl, merchantKey));
      const created = await api('POST', '/v1/api-keys', { token, body: { name: 'doomed' } });
      const doomed = { clientId: created.body.id, clientSecret: remember(created.body.secret) };
      const doomedToken = remember(await accessToken(stack.baseUrl, doomed));
      expect((await api('GET', `/v1/api-keys/${doomed.clientId}`, { token: doomedToken })).status).toBe(200);

      const revoked = await api('DELETE', `/v1/api-keys/${doomed.clientId}`, { token });
      expect(revoked.status).toBe(200);
      expect(revoked.body).toMatchObject({ id: doomed.clientId, status: 'revoked' });
      expect(revoked.body.revokedAt).toBeTruthy();

      expect((await api('GET', `/v1/api-keys/${doomed.clientId}`, { token: doomedToken })).body.error.id).toBe(
        '401002',
      );
      const grant = await api('POST', '/v1/oauth2/token', {
        body: { grant_type: 'client_credentials', client_id: doomed.clientId, client_secret: doomed.clientSecret },
      });
      expect(grant.status).toBe(401);
      expect((await api('PUT', `/v1/api-keys/${doomed.clientId}`, { token, body: { name: 'x' } })).body.error.id).toBe(
        '409001',
      );
      expect((await api('DELETE', `/v1/api-keys/${doomed.clientId}`, { token })).status).toBe(200);
    });

    it('lets a partner key manage its own merchants keys, but not another partners', async () => {
      const partnerKey = await seedKey(stack.db, { pid: partner.pid });
      remember(partnerKey.clientSecret);
      const token = remember(await accessToken(stack.baseUrl, partnerKey));
      const created = await api('POST', '/v1/api-keys', { token, body: { mid: partner.mid, name: 'made by partner' } });
      expect(created.status).toBe(201);
      remember(created.body.secret);
      expect(created.body).toMatchObject({ mid: partner.mid, pid: partner.pid, ownerType: 'merchant' });
      expect((await api('GET', `/v1/api-keys?mid=${partner.mid}`, { token })).status).toBe(200);
      expect((await api('GET', `/v1/api-keys/${merchantKey.clientId}`, { token })).status).toBe(200);

      const other = await seedMerchant(stack.db);
      const otherKey = await seedKey(stack.db, other);
      remember(otherKey.clientSecret);
      expect((await api('GET', `/v1/api-keys?mid=${other.mid}`, { token })).body.error.id).toBe('403001');
      expect((await api('POST', '/v1/api-keys', { token, body: { mid: other.mid, name: 'x' } })).body.error.id).toBe(
        '403001',
      );
      const foreign = await api('GET', `/v1/api-keys/${otherKey.clientId}`, { token });
      expect(foreign.status).toBe(404);
      expect(foreign.body.error).toMatchObject({
        id: '404002',
        message: 'The specified API key could not be located.',
      });
      expect((await api('DELETE', `/v1/api-keys/${otherKey.clientId}`, { token })).status).toBe(404);
    });

    it('answers a merchant key reading another merchants key with 404, and listing it with 403', async () => {
      const sibling = await seedMerchant(stack.db, partner.pid); // same partner, different merchant
      const siblingKey = await seedKey(stack.db, sibling);
      remember(siblingKey.clientSecret);
      const token = remember(await accessToken(stack.baseUrl, merchantKey));
      const read = await api('GET', `/v1/api-keys/${siblingKey.clientId}`, { token });
      expect(read.status).toBe(404);
      expect(read.body.error.id).toBe('404002');
      expect((await api('GET', `/v1/api-keys?mid=${sibling.mid}`, { token })).status).toBe(403);
      expect((await api('GET', '/v1/api-keys/not-a-uuid', { token })).status).toBe(404);
    });

    it('enforces scopes: 403002 without the api_keys scope, and no granting beyond ones own', async () => {
      const paymentsOnly = await seedKey(stack.db, partner, ['payments']);
      remember(paymentsOnly.clientSecret);
      const token = remember(await accessToken(stack.baseUrl, paymentsOnly));
      const res = await api('GET', `/v1/api-keys?mid=${partner.mid}`, { token });
      expect(res.status).toBe(403);
      expect(res.body.error.id).toBe('403002');
      // Each scope guards its own resources only: the payments key reaches order lookup (404, not 403).
      const lookup = await api('GET', `/v1/orders/${'6f1c2b9e-8d1a-4c55-9a43-2f5d9e0b7c11'}`, { token });
      expect([lookup.status, lookup.body.error.id]).toEqual([404, '404003']);
      const settingsOnly = await seedKey(stack.db, partner, ['settings']);
      remember(settingsOnly.clientSecret);
      const settingsToken = remember(await accessToken(stack.baseUrl, settingsOnly));
      expect((await api('GET', `/v1/merchants/${partner.mid}/settings`, { token: settingsToken })).status).toBe(200);
      expect(
        (await api('GET', `/v1/orders/${'6f1c2b9e-8d1a-4c55-9a43-2f5d9e0b7c11'}`, { token: settingsToken })).body.error
          .id,
      ).toBe('403002');

      const keysOnly = await seedKey(stack.db, partner, ['api_keys']);
      remember(keysOnly.clientSecret);
      const keysToken = remember(await accessToken(stack.baseUrl, keysOnly));
      const escalate = await api('POST', '/v1/api-keys', {
        token: keysToken,
        body: { name: 'x', scopes: ['settings'] },
      });
      expect(escalate.body.error.id).toBe('403002');
      // Nor by rotating the secret of a key with more scopes: that would hand out its credentials.
      const rotate = await api('PUT', `/v1/api-keys/${paymentsOnly.clientId}`, {
        token: keysToken,
        body: { rotateSecret: true },
      });
      expect([rotate.status, rotate.body.error?.id, rotate.body.secret]).toEqual([403, '403002', undefined]);
      // The refused rotation changed nothing: the old secret still gets a token (accessToken throws otherwise).
      remember(await accessToken(stack.baseUrl, paymentsOnly));
      const own = await api('PUT', `/v1/api-keys/${keysOnly.clientId}`, {
        token: keysToken,
        body: { rotateSecret: true },
      });
      expect(own.status).toBe(200);
      remember(own.body.secret);
    });
  });

  describe('merchant settings and sites', () => {
    it('has defaults, validates changes naming the field, and keeps valid ones', async () => {
      const token = remember(await accessToken(stack.baseUrl, merchantKey));
      const path = `/v1/merchants/${partner.mid}/settings`;
      expect((await api('GET', path, { token })).body).toEqual({
        mid: partner.mid,
        defaultExpiryHours: 168,
        syncMitWindowHours: 24,
        mitEvaluation: 'async',
        authorizeCapability: false,
        technicalContactEmail: null,
        captureWindowMinutes: 5,
        processor: null,
      });
      const tooLong = await api('PUT', path, { token, body: { defaultExpiryHours: 21 * 24 + 1 } });
      expect(tooLong.status).toBe(400);
      expect(tooLong.body.error).toMatchObject({ id: '400002', field: 'defaultExpiryHours' });
      expect((await api('PUT', path, { token, body: { mitEvaluation: 'sometimes' } })).body.error.field).toBe(
        'mitEvaluation',
      );
      expect((await api('PUT', path, { token, body: { technicalContactEmail: 'not-mail' } })).body.error.field).toBe(
        'technicalContactEmail',
      );
      expect((await api('PUT', path, { token, body: { surprise: 1 } })).status).toBe(400);
      expect((await api('GET', path, { token })).body.defaultExpiryHours).toBe(168); // nothing changed

      const changed = await api('PUT', path, {
        token,
        body: {
          defaultExpiryHours: 504,
          mitEvaluation: 'sync',
          authorizeCapability: true,
          technicalContactEmail: 'ops@shop.example',
        },
      });
      expect(changed.status).toBe(200);
      expect((await api('GET', path, { token })).body).toMatchObject({
        defaultExpiryHours: 504,
        mitEvaluation: 'sync',
        authorizeCapability: true,
        technicalContactEmail: 'ops@shop.example',
        captureWindowMinutes: 5,
      });
    });

    it('keeps merchants apart: another merchants settings are 403', async () => {
      const other = await seedMerchant(stack.db);
      const token = remember(await accessToken(stack.baseUrl, merchantKey));
      expect((await api('GET', `/v1/merchants/${other.mid}/settings`, { token })).body.error.id).toBe('403001');
      expect(
        (await api('PUT', `/v1/merchants/${other.mid}/settings`, { token, body: { syncMitWindowHours: 2 } })).status,
      ).toBe(403);
      // Its own MID in capitals is still its own (a UUID's case means nothing); another's is still not.
      expect((await api('GET', `/v1/merchants/${partner.mid.toUpperCase()}/settings`, { token })).status).toBe(200);
      expect((await api('GET', `/v1/merchants/${other.mid.toUpperCase()}/settings`, { token })).status).toBe(403);
    });

    it('adds and lists sites with their allowed origins', async () => {
      const token = remember(await accessToken(stack.baseUrl, merchantKey));
      const path = `/v1/merchants/${partner.mid}/sites`;
      const created = await api('POST', path, {
        token,
        body: { name: 'Shop', allowedOrigins: ['https://shop.example', 'http://localhost:8080'] },
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        mid: partner.mid,
        name: 'Shop',
        allowedOrigins: ['https://shop.example', 'http://localhost:8080'],
      });
      expect(created.body.siteId).toMatch(UUID);
      expect((await api('GET', path, { token })).body.data.map((s: { siteId: string }) => s.siteId)).toContain(
        created.body.siteId,
      );
      const bad = await api('POST', path, {
        token,
        body: { name: 'Shop', allowedOrigins: ['http://shop.example/path'] },
      });
      expect(bad.body.error).toMatchObject({ id: '400002', field: 'allowedOrigins.0' });
    });
  });

  describe('POST /v1/tokenize (tokenization key)', () => {
    const tokenize = (body: unknown, key = partner.tokenizationKey) =>
      api('POST', '/v1/tokenize', { body, headers: { 'x-tokenization-key': key } });
    const nextYear = new Date().getUTCFullYear() + 1;

    it('vaults a test card: token, brand, BIN and last4; the number is encrypted at rest', async () => {
      const res = await tokenize({
        cardNumber: '4111 1111 1111 1111',
        expiryMonth: 12,
        expiryYear: nextYear,
        holderName: 'A Shopper',
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        token: expect.stringMatching(UUID),
        brand: 'visa',
        bin: '411111',
        last4: '1111',
        expiryMonth: 12,
        expiryYear: nextYear,
      });
      expect(JSON.stringify(res.body)).not.toContain('4111111111111111');

      const row = await stack.db('card_vault').where({ token: res.body.token }).first();
      expect(row).toBeDefined();
      expect(JSON.stringify(row)).not.toContain('4111111111111111');
      expect(row?.ciphertext.toString('utf8')).not.toContain('4111111111111111');
      expect(JSON.stringify(row)).not.toContain('A Shopper');
      expect(await revealCard(stack.db, partner.mid, res.body.token, stack.config.vaultKeys)).toBe('4111111111111111');
      expect(
        await revealCard(stack.db, '00000000-0000-4000-8000-000000000000', res.body.token, stack.config.vaultKeys),
      ).toBeUndefined();
    });

    it('gives each tokenization a token of its own: no earlier token changed, nothing told; one card to the budget', async () => {
      const first = await tokenize({ cardNumber: '4000000000000002', expiryMonth: 1, expiryYear: nextYear });
      const second = await tokenize({ cardNumber: '4000-0000-0000-0002', expiryMonth: 2, expiryYear: nextYear + 1 });
      // Whoever holds the public key learns nothing of the card's history, and the first token keeps its expiry.
      expect([first.status, second.status]).toEqual([201, 201]);
      expect(second.body.token).not.toBe(first.body.token);
      expect(second.body).toMatchObject({ expiryMonth: 2, expiryYear: nextYear + 1 });
      const rows = await stack.db('card_vault').whereIn('token', [first.body.token, second.body.token]);
      const expiryOf = (token: string) => rows.find((r) => r.token === token)?.expiry_month;
      expect([expiryOf(first.body.token), expiryOf(second.body.token)]).toEqual([1, 2]);
      // One card: both tokens carry its fingerprint, which the networks' retry budgets count by.
      expect(new Set(rows.map((r) => r.fingerprint)).size).toBe(1);
      const other = await seedMerchant(stack.db);
      remember(other.tokenizationKey);
      const theirs = await tokenize(
        { cardNumber: '4000000000000002', expiryMonth: 1, expiryYear: nextYear },
        other.tokenizationKey,
      );
      expect(theirs.status).toBe(201);
      expect(theirs.body.token).not.toBe(first.body.token);
    });

    it("a further evaluate with another token of the order's card is the same payment, not 409010", async () => {
      const card = { cardNumber: '4111111111111111', expiryMonth: 12, expiryYear: nextYear };
      const [t1, t2] = [(await tokenize(card)).body.token, (await tokenize(card)).body.token];
      expect(t2).not.toBe(t1);
      const token = remember(await accessToken(stack.baseUrl, merchantKey));
      const externalOrderId = `shop-${randomUUID()}`;
      const evaluate = (paymentMethod: unknown) =>
        api('POST', '/v1/evaluate', {
          token,
          body: {
            idempotencyKey: randomUUID(),
            externalOrderId,
            transaction: { amount: 2500, currency: 'USD', responseCode: '51' },
            paymentMethod,
          },
        });
      const first = await evaluate({ token: t1 });
      expect(first.body).toMatchObject({ outcome: 'APPROVED' });
      // The shopper's checkout tokenized the card again; so is its number, vaulted as the card's first token.
      for (const again of [{ token: t2 }, card]) {
        const res = await evaluate(again);
        expect([res.status, res.body.orderId, res.body.outcome]).toEqual([200, first.body.orderId, 'APPROVED']);
      }
      const another = (await tokenize({ ...card, cardNumber: '4000000000000002' })).body.token;
      const mismatch = await evaluate({ token: another });
      expect([mismatch.status, mismatch.body.error?.id]).toEqual([409, '409010']);
    });

    it('rejects a bad check digit (400010), a sandbox non-test card (400013) and an expired card (400012), storing nothing', async () => {
      const before = await stack.db('card_vault').count<{ count: string }[]>('* as count');
      const luhn = await tokenize({ cardNumber: '4111111111111112', expiryMonth: 12, expiryYear: nextYear });
      expect(luhn.status).toBe(400);
      expect(luhn.body.error).toMatchObject({ id: '400010', field: 'cardNumber' });
      expect(JSON.stringify(luhn.body)).not.toContain('4111111111111112');
      const real = await tokenize({ cardNumber: '5555555555554444', expiryMonth: 12, expiryYear: nextYear });
      expect(real.status).toBe(400);
      expect(real.body.error.id).toBe('400013');
      const expired = await tokenize({ cardNumber: '4111111111111111', expiryMonth: 1, expiryYear: 2020 });
      expect(expired.body.error.id).toBe('400012');
      const month = await tokenize({ cardNumber: '4111111111111111', expiryMonth: 13, expiryYear: nextYear });
      expect(month.body.error).toMatchObject({ id: '400002', field: 'expiryMonth' });
      expect(await stack.db('card_vault').count<{ count: string }[]>('* as count')).toEqual(before);
    });

    it('takes the tokenization key; a bearer token only with the Spreedly-shaped body (docs/compatibility.md)', async () => {
      const token = remember(await accessToken(stack.baseUrl, merchantKey));
      const ours = { cardNumber: '4111111111111111', expiryMonth: 1, expiryYear: nextYear };
      const before = await stack.db('card_vault').count<{ count: string }[]>('* as count');
      // The interface: tokenize authenticates with a tokenization key, not a bearer token.
      const bearerOurs = await api('POST', '/v1/tokenize', { token, body: ours });
      expect([bearerOurs.status, bearerOurs.body.error.id]).toEqual([401, '401004']);
      expect(await stack.db('card_vault').count<{ count: string }[]>('* as count')).toEqual(before);
      // The deviation: ActiveMerchant's store sends its bearer token with Spreedly's body.
      const spreedly = { payment_method: { credit_card: { number: '4111111111111111', month: 1, year: nextYear } } };
      const bearerSpreedly = await api('POST', '/v1/tokenize', { token, body: spreedly });
      expect([200, 201]).toContain(bearerSpreedly.status);
      expect(bearerSpreedly.body.transaction.payment_method).toMatchObject({
        first_six_digits: '411111',
        last_four_digits: '1111',
      });
      const badBearer = await api('POST', '/v1/tokenize', { token: 'not-a-token', body: spreedly });
      expect([badBearer.status, badBearer.body.error.id]).toEqual([401, '401002']);
      // The merchant's own call again: its card's token, the expiry updated (ActiveMerchant's store).
      const merchantToken = bearerSpreedly.body.transaction.payment_method.token;
      const renewed = { payment_method: { credit_card: { ...spreedly.payment_method.credit_card, month: 2 } } };
      const again = await api('POST', '/v1/tokenize', { token, body: renewed });
      expect([again.status, again.body.transaction.payment_method.token]).toEqual([200, merchantToken]);
      expect(await stack.db('card_vault').where({ token: merchantToken }).first('expiry_month')).toEqual({
        expiry_month: 2,
      });
      // With the tokenization key: a token of its own.
      const keyed = await tokenize(ours);
      expect(keyed.status).toBe(201);
      expect(keyed.body).toMatchObject({ bin: '411111', last4: '1111' });
      expect(keyed.body.token).not.toBe(merchantToken);
      expect((await tokenize(ours, 'tk_sandbox_wrong')).body.error.id).toBe('401004');
    });
  });

  describe('POST /v1/outcome (deprecated)', () => {
    it('answers like order lookup, with Deprecation and a Link to its successor', async () => {
      const token = remember(await accessToken(stack.baseUrl, merchantKey));
      const orderId = '6f1c2b9e-8d1a-4c55-9a43-2f5d9e0b7c11';
      const res = await api('POST', '/v1/outcome', { token, body: { orderId } });
      expect(res.status).toBe(404);
      expect(res.body.error.id).toBe('404003');
      expect(res.headers.get('deprecation')).toBe('true');
      expect(res.headers.get('link')).toBe(`</v1/orders/${orderId}>; rel="successor-version"`);
      expect((await api('POST', '/v1/outcome', { token, body: { orderId: 'nope' } })).body.error.field).toBe('orderId');
    });
  });
});

describe('per-merchant rate limits on the payment endpoints', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ env: { RATE_LIMIT_BURST: '3', RATE_LIMIT_PER_SECOND: '0.5' } });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('answers 429 with Retry-After once a merchant spends its burst, without touching other merchants', async () => {
    const a = await seedMerchant(stack.db);
    const b = await seedMerchant(stack.db);
    const call = (key: string) =>
      fetch(`${stack.baseUrl}/v1/tokenize`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-tokenization-key': key },
        body: JSON.stringify({ cardNumber: '4111111111111111', expiryMonth: 12, expiryYear: 2090 }),
      });
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      const res = await call(a.tokenizationKey);
      statuses.push(res.status);
      expect(res.headers.get('ratelimit-limit')).toBe('3');
      expect(res.headers.get('ratelimit-remaining')).toBe(String(2 - i));
    }
    expect(statuses).toEqual([201, 201, 201]);
    const limited = await call(a.tokenizationKey);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
    expect(((await limited.json()) as { error: { id: string } }).error.id).toBe('429001');
    expect((await call(b.tokenizationKey)).status).toBe(201);
    stack.clock.advance(2_000);
    expect((await call(a.tokenizationKey)).status).toBe(201);
  });
});
