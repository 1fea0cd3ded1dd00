import { randomUUID } from 'node:crypto';
import { callApi } from '../helpers/api-client';
import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { startTestStack, type TestStack } from '../helpers/stack';
import { ActiveMerchantLike, type Address, type Card, type GatewayOptions, NodeSampleLike } from './clients';
import { parseAnswer, scrubTranscript } from './judge';

/**
 * Contract: a merchant on ActiveMerchant's FlexChargeGateway (Spreedly) or on the vendor's Node
 * sample changes the base URL and nothing else (issue 10, docs/compatibility.md). Each request
 * is built as those clients build it; each answer is judged by the gateway's own rules (judge.ts).
 */
const nextYear = new Date().getUTCFullYear() + 1;
const card = (number: string, verificationValue: string | undefined = '999'): Card => ({
  number,
  month: 9,
  year: nextYear,
  verificationValue,
  firstName: 'Cure',
  lastName: 'Tester',
  brand: 'visa',
});
const address: Address = {
  name: 'Cure Tester',
  address1: '456 My Street',
  city: 'Ottawa',
  state: 'ON',
  zip: 'K1C2N6',
  country: 'CA',
  phone: '(555)555-5555',
};

describe('FlexCharge clients against the service (contract)', () => {
  let stack: TestStack;
  let gateway: ActiveMerchantLike;
  let credentials: { appKey: string; appSecret: string; siteId: string; mid: string };

  /** The remote test suite's options, with a fresh order id and key per call. */
  const options = (more: GatewayOptions = {}): GatewayOptions => ({
    isDeclined: true,
    orderId: randomUUID(),
    idempotencyKey: randomUUID(),
    email: 'test@gmail.com',
    responseCode: '100',
    responseCodeSource: 'nmi',
    avsResultCode: '200',
    cvvResultCode: '111',
    cavvResultCode: '111',
    timezoneUtcOffset: '-5',
    billingAddress: address,
    shippingAddress: { ...address, name: 'Jhon Doe', country: 'US' },
    senseKey: null,
    extraData: JSON.stringify({ hello: 'world' }),
    isMit: false,
    phone: '+99.2001a/+99.2001b',
    ...more,
  });

  beforeAll(async () => {
    stack = await startTestStack();
    const merchant = await seedMerchant(stack.db);
    const key = await seedKey(stack.db, merchant);
    const admin = await accessToken(stack.baseUrl, key);
    await callApi(stack.baseUrl, admin, 'PUT', `/v1/merchants/${merchant.mid}/settings`, { authorizeCapability: true });
    const site = await callApi(stack.baseUrl, admin, 'POST', `/v1/merchants/${merchant.mid}/sites`, { name: 'shop' });
    credentials = { appKey: key.clientId, appSecret: key.clientSecret, siteId: site.body.siteId, mid: merchant.mid };
    gateway = new ActiveMerchantLike(stack.baseUrl, credentials);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  describe('token', () => {
    it('AppKey/AppSecret get the vendor shape: accessToken, expires in epoch ms, and no access_token', async () => {
      const verdict = await gateway.fetchAccessToken();
      expect(verdict.success).toBe(true);
      expect(verdict.expires).toBeGreaterThan(Date.now());
      expect(verdict.expires).toBeLessThan(Date.now() + 2 * 86_400_000);
      const answer = parseAnswer(gateway.wire.at(-1)?.text ?? '');
      expect(answer).toMatchObject({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        success: true,
        result: null,
        status: null,
        statusCode: null,
        errors: [],
        customProperties: {},
        refreshToken: null, // no refresh grant (docs/compatibility.md)
      });
      expect(answer).not.toHaveProperty('access_token'); // the gateway's scrubber filters only accessToken
      // The transcript a merchant logs, as the gateway scrubs it: no credential of any kind is left.
      const logged = scrubTranscript(gateway.wire.at(-1)?.text ?? '');
      for (const secret of [credentials.appKey, credentials.appSecret, String(answer.accessToken)]) {
        expect(logged).not.toContain(secret);
      }
    });

    it('the Node sample (appKey/appSecret) gets it too; RFC 6749 keeps its shape; bad secrets keep 401', async () => {
      const sample = new NodeSampleLike(stack.baseUrl);
      const ok = await sample.authenticate(credentials.appKey, credentials.appSecret);
      expect(ok.status).toBe(200);
      expect(typeof ok.body.accessToken).toBe('string');
      const rfc = await fetch(`${stack.baseUrl}/v1/oauth2/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          grant_type: 'client_credentials',
          client_id: credentials.appKey,
          client_secret: credentials.appSecret,
        }),
      });
      const rfcBody = await rfc.json();
      expect(rfcBody).toMatchObject({ token_type: 'Bearer' });
      expect(rfcBody).not.toHaveProperty('accessToken');
      const bad = await sample.authenticate(credentials.appKey, 'wrong');
      expect([bad.status, bad.body.id]).toEqual([401, '401001']);
      expect(bad.body).not.toHaveProperty('accessToken');
    });
  });

  describe('purchase and authorize (ActiveMerchant)', () => {
    it('CIT purchase: success, message APPROVED, authorization orderId#USD; the answer keeps its envelope', async () => {
      const res = await gateway.purchase(100, card('4111111111111111'), options());
      expect(res.status).toBe(200);
      expect(res.verdict).toMatchObject({ success: true, message: 'APPROVED', errorCode: undefined });
      const body = parseAnswer(res.text);
      expect(res.verdict.authorization).toBe(`${body.orderId}#USD`);
      expect(body).toMatchObject({
        status: 'APPROVED',
        success: true,
        result: 'Success',
        statusCode: null,
        errors: [],
        customProperties: {},
        orderStatus: 7,
        orderStatusName: 'Completed',
        senseKey: null,
      });
      expect(body).not.toHaveProperty('statusName');
      expect(body.orderSessionKey).not.toBe(body.orderId);
    });

    it('CHALLENGE is a success, not when the merchant asked async; a purchase without CVV works', async () => {
      const challenge = await gateway.purchase(100, card('4000000000003220'), options());
      expect(challenge.verdict).toMatchObject({ success: true, message: 'CHALLENGE' });
      // inquire reads the order waiting for its challenge by the same word: a success too.
      const inquire = await gateway.inquire(challenge.verdict.authorization as string);
      expect(inquire.verdict).toMatchObject({ success: true, message: 'CHALLENGE' });
      const asyncAsked = await gateway.purchase(100, card('4000000000003220'), options({ async: true }));
      expect(asyncAsked.verdict).toMatchObject({ success: false, message: 'CHALLENGE', errorCode: 'CHALLENGE' });
      const noCvv = await gateway.purchase(100, card('4111111111111111', undefined), options());
      expect(noCvv.verdict.success).toBe(true);
    });

    it('a declined CIT stays HTTP 200 and is judged a failure with error code DECLINED', async () => {
      const res = await gateway.purchase(100, card('4000000000000002'), options());
      expect(res.status).toBe(200);
      expect(res.verdict).toMatchObject({ success: false, message: 'DECLINED', errorCode: 'DECLINED' });
    });

    it('MIT purchase (async MIT): SUBMITTED, a success; 3-D Secure passes through', async () => {
      const res = await gateway.purchase(
        100,
        card('4111111111111111'),
        options({
          isMit: true,
          isRecurring: false,
          mitExpiryDateUtc: new Date(Date.now() + 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
          description: 'MyShoesStore',
          threeDSecure: { version: '2.1.0', eci: '05', cavv: 'AAABCSIIAAAAAAACcwgAEMCoNh=', enrolled: 'Y' },
        }),
      );
      expect(res.verdict).toMatchObject({ success: true, message: 'SUBMITTED' });
    });

    it('MIT recurring, or MIT without is_recurring (the gateway sends true), needs a subscription: 400', async () => {
      for (const isRecurring of [true, undefined]) {
        const res = await gateway.purchase(100, card('4111111111111111'), options({ isMit: true, isRecurring }));
        expect(res.status).toBe(400);
        expect(parseAnswer(res.text)).toMatchObject({ error: { id: '400002', field: 'subscription' } });
        expect(res.verdict.success).toBe(false);
        expect(res.verdict.errorCode).toBeUndefined();
        expect(res.verdict.message).toContain('subscription');
        expect(res.verdict.message).not.toContain('TraceId');
      }
    });

    it('a partial refund needs an idempotencyKey the gateway does not send (400005); a full refund works', async () => {
      const sale = await gateway.purchase(100, card('4111111111111111'), options());
      const authorization = sale.verdict.authorization as string;
      const partial = await gateway.refund(40, authorization);
      expect([
        partial.status,
        (parseAnswer(partial.text).error as { id?: string })?.id,
        partial.verdict.success,
      ]).toEqual([400, '400005', false]);
      const full = await gateway.refund(100, authorization);
      expect(full.verdict).toMatchObject({ success: true, message: 'APPROVED' });
    });

    it('authorize: CAPTUREREQUIRED; inquire: success with CAPTUREREQUIRED; capture: APPROVED; refund: APPROVED', async () => {
      const auth = await gateway.authorize(100, card('4111111111111111'), options());
      expect(auth.verdict).toMatchObject({ success: true, message: 'CAPTUREREQUIRED' });
      const authorization = auth.verdict.authorization as string;
      const inquire = await gateway.inquire(authorization);
      expect(inquire.verdict).toMatchObject({ success: true, message: 'CAPTUREREQUIRED' });
      const capture = await gateway.capture(100, authorization);
      expect(capture.verdict).toMatchObject({ success: true, message: 'APPROVED', authorization });
      // Its answer lost, the gateway captures again under a new key: the capture it made answers.
      const again = await gateway.capture(100, authorization);
      expect(again.verdict).toMatchObject({ success: true, message: 'APPROVED', authorization });
      expect(parseAnswer(again.text)).toMatchObject({ orderStatusName: 'Completed', amounts: { captured: 100 } });
      const other = await gateway.capture(60, authorization); // another amount is no repeat: refused
      expect([other.status, other.verdict.success]).toEqual([409, false]);
      const refund = await gateway.refund(100, authorization);
      expect(refund.verdict).toMatchObject({ success: true, message: 'APPROVED', authorization });
      expect(parseAnswer(refund.text)).toMatchObject({ amount: 100, orderStatusName: 'Returned' });
    });

    it('a EUR authorization captures: the gateway names every authorization USD, and that is its default', async () => {
      const auth = await gateway.authorize(100, card('4111111111111111'), options({ currency: 'EUR' }));
      const authorization = auth.verdict.authorization as string;
      expect(authorization).toMatch(/#USD$/); // AM puts post[:currency] there, which evaluate never has
      const capture = await gateway.capture(100, authorization);
      expect(capture.verdict).toMatchObject({ success: true, message: 'APPROVED' });
      // A currency other than the gateway's default that is not the order's is still refused.
      const again = await gateway.authorize(100, card('4111111111111111'), options({ currency: 'EUR' }));
      const [orderId] = (again.verdict.authorization as string).split('#');
      const gbp = await gateway.capture(100, `${orderId}#GBP`);
      expect([gbp.status, (parseAnswer(gbp.text).error as { field?: string } | undefined)?.field]).toEqual([
        400,
        'currency',
      ]);
    });

    it('a refund the order refuses says so (409 with responseMessage), not that the gateway should send a key', async () => {
      const errorOf = (r: { text: string }) =>
        parseAnswer(r.text) as { error?: { id?: string }; responseMessage?: string };
      const auth = await gateway.authorize(100, card('4111111111111111'), options());
      const uncaptured = await gateway.refund(40, auth.verdict.authorization as string);
      expect([uncaptured.status, errorOf(uncaptured).error?.id, uncaptured.verdict.success]).toEqual([
        409,
        '409007',
        false,
      ]);
      expect(errorOf(uncaptured).responseMessage).toEqual(expect.any(String));
      const sale = await gateway.purchase(100, card('4111111111111111'), options());
      const tooMuch = await gateway.refund(150, sale.verdict.authorization as string);
      expect([tooMuch.status, errorOf(tooMuch).error?.id]).toEqual([409, '409006']);
    });

    it('a refused capture is a failure whose message the gateway can show', async () => {
      const sale = await gateway.purchase(100, card('4111111111111111'), options());
      const capture = await gateway.capture(100, sale.verdict.authorization as string);
      expect(capture.status).toBe(409);
      expect(capture.verdict.success).toBe(false);
      expect(capture.verdict.message).toContain('not waiting for a capture');
      expect(parseAnswer(capture.text)).toMatchObject({ responseMessage: expect.any(String) });
    });

    it('void: authorize then cancel, an empty body is a success', async () => {
      const auth = await gateway.authorize(100, card('4111111111111111'), options());
      const voided = await gateway.void(auth.verdict.authorization as string);
      expect([voided.status, voided.text, voided.verdict.success]).toEqual([200, '', true]);
    });

    it('store (bearer token, Spreedly body) then purchase with the vaulted token', async () => {
      const stored = await gateway.store(card('4111111111111111'));
      expect(stored.verdict.success).toBe(true);
      const answer = parseAnswer(stored.text);
      expect(answer).toMatchObject({
        success: true,
        transaction: { succeeded: true, payment_method: { last_four_digits: '1111', first_name: 'Cure' } },
      });
      expect(stored.text).not.toContain('4111111111111111');
      const purchase = await gateway.purchase(100, stored.verdict.authorization as string, options());
      expect(purchase.verdict).toMatchObject({ success: true, message: 'APPROVED' });
    });

    it('inquire of a completed sale is a success (SUCCESS); of a refunded one, a failure (RETURNED)', async () => {
      const sale = await gateway.purchase(100, card('4111111111111111'), options());
      const authorization = sale.verdict.authorization as string;
      const inquire = await gateway.inquire(authorization);
      expect(inquire.verdict).toMatchObject({ success: true, message: 'SUCCESS' });
      await gateway.refund(100, authorization);
      const refunded = await gateway.inquire(authorization);
      expect(refunded.verdict).toMatchObject({ success: false, message: 'RETURNED', errorCode: 'RETURNED' });
    });

    it('inquire of an unknown order is a failure', async () => {
      const res = await gateway.inquire(`${randomUUID()}#USD`);
      expect(res.verdict.success).toBe(false);
    });

    it('a 401 makes the gateway drop its token; the next call fetches a new one and succeeds', async () => {
      gateway.accessToken = 'expiredOrForeignToken';
      gateway.tokenExpires = Date.now() + 15_000;
      const refused = await gateway.purchase(100, card('4111111111111111'), options());
      expect(refused.status).toBe(401);
      expect(refused.verdict.success).toBe(false);
      expect(gateway.accessToken).toBe('');
      const tokensBefore = gateway.wire.filter((w) => w.path === '/v1/oauth2/token').length;
      const retried = await gateway.purchase(100, card('4111111111111111'), options());
      expect(retried.verdict.success).toBe(true);
      expect(gateway.wire.filter((w) => w.path === '/v1/oauth2/token')).toHaveLength(tokensBefore + 1);
    });

    it('missing required fields: 400, every problem listed at once, printed whole by the gateway', async () => {
      const res = await gateway.purchase(100, card('4111111111111111'), {
        billingAddress: address,
        currency: 'usd',
      });
      expect(res.status).toBe(400);
      expect(res.verdict).toMatchObject({ success: false, errorCode: undefined });
      const printed = JSON.parse(res.verdict.message as string);
      expect(printed.title).toBeTruthy();
      expect(printed.error.problems.map((p: { field: string }) => p.field).sort()).toEqual([
        'externalOrderId',
        'transaction.currency',
      ]);
      expect(parseAnswer(res.text).TraceId).toBe(printed.error.requestId);
    });

    it('mid and siteId must be the token’s own (403); a changed amount on the same order is 409 409010', async () => {
      const foreign = new ActiveMerchantLike(stack.baseUrl, { ...credentials, mid: randomUUID() });
      const foreignAnswer = await foreign.purchase(100, card('4111111111111111'), options());
      expect([foreignAnswer.status, (parseAnswer(foreignAnswer.text).error as { id?: string })?.id]).toEqual([
        403,
        '403001',
      ]);
      const otherSite = new ActiveMerchantLike(stack.baseUrl, { ...credentials, siteId: randomUUID() });
      const otherSiteAnswer = await otherSite.purchase(100, card('4111111111111111'), options());
      expect([otherSiteAnswer.status, (parseAnswer(otherSiteAnswer.text).error as { id?: string })?.id]).toEqual([
        403,
        '403001',
      ]);
      const first = options();
      const sale = await gateway.purchase(100, card('4111111111111111'), first);
      const again = await gateway.purchase(250, card('4111111111111111'), { ...first, idempotencyKey: randomUUID() });
      expect(again.status).toBe(409);
      expect(parseAnswer(again.text)).toMatchObject({
        error: { id: '409010', orderId: parseAnswer(sale.text).orderId },
      });
      const same = await gateway.purchase(100, card('4111111111111111'), { ...first, idempotencyKey: randomUUID() });
      expect(same.verdict).toMatchObject({ success: true, message: 'APPROVED' });
    });
  });

  describe('the vendor Node sample', () => {
    it('token, evaluate (raw card and vault token), outcome and refund by orderSessionKey on //-paths', async () => {
      const sample = new NodeSampleLike(stack.baseUrl);
      const token = (await sample.authenticate(credentials.appKey, credentials.appSecret)).body.accessToken;
      const evaluated = await sample.evaluate(token, sample.evaluateBody('4111111111111111', nextYear));
      expect(evaluated.status).toBe(200);
      expect(evaluated.body).toMatchObject({ success: true, status: 'APPROVED' });
      const outcome = await sample.outcome(token, evaluated.body.orderSessionKey);
      expect(outcome.status).toBe(200);
      expect(outcome.body).toMatchObject({ id: evaluated.body.orderId, statusName: 'SUCCESS' });
      // The sample's own refund body (amount 0, partial) is refused with a message...
      const zero = await sample.refund(token, evaluated.body.orderSessionKey, {
        amountToRefund: 0,
        isPartialRefund: true,
      });
      expect([zero.status, zero.body.error.id, typeof zero.body.title]).toEqual([400, '400002', 'string']);
      // ...and a full one by orderSessionKey works.
      const full = await sample.refund(token, evaluated.body.orderSessionKey, { amountToRefund: 1.0 });
      expect(full.body).toMatchObject({ success: true, status: 'APPROVED', orderId: evaluated.body.orderId });
      // A vault token in cardNumber, without ActiveMerchant's Token flag.
      const stored = await gateway.store(card('4111111111111111'));
      const byToken = await sample.evaluate(
        token,
        sample.evaluateBody(stored.verdict.authorization as string, nextYear),
      );
      expect(byToken.body).toMatchObject({ success: true, status: 'APPROVED' });
    });
  });
});
