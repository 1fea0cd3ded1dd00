import { randomUUID } from 'node:crypto';
import { listOrderEvents } from '../../src/db/repositories/events';
import { orderWorkflowId } from '../../src/domain/orders/workflow-ids';
import { callApi } from '../helpers/api-client';
import { eventually } from '../helpers/eventually';
import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { chargeKey } from '../helpers/order-row';
import { startTestStack, type TestStack } from '../helpers/stack';
import { type CardNetwork, startCardNetwork } from './harness/card-network';
import { BEHAVIOURS, CARDS, TEST_VAULT_KEYS } from './harness/cards';
import { type StripeMock, startStripeMock } from './harness/stripe-mock';

const nextYear = new Date().getUTCFullYear() + 1;

/**
 * Production mode with the Stripe adapter (docs/processors.md): the real API, worker, Temporal
 * dev server and Postgres; Stripe is stripe-mock, which validates every request against Stripe's
 * OpenAPI, behind the card-network simulator that plays the issuers (harness/card-network.ts).
 */
describe('production with the Stripe adapter against stripe-mock', () => {
  let stripeMock: StripeMock;
  let network: CardNetwork;
  let stack: TestStack;
  let token: string;
  let mid: string;

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
    mid = merchant.mid;
    token = await accessToken(stack.baseUrl, await seedKey(stack.db, merchant));
    const settings = await api('PUT', `/v1/merchants/${mid}/settings`, {
      processor: 'stripe',
      authorizeCapability: true,
    });
    expect(settings.body).toMatchObject({ processor: 'stripe', authorizeCapability: true });
  });
  afterAll(async () => {
    await stack?.stop();
    await network?.stop();
    await stripeMock?.stop();
  });

  const api = (method: string, path: string, body?: unknown, as = token) =>
    callApi(stack.baseUrl, as, method, path, body);
  const evaluate = (cardNumber: string, overrides: Record<string, unknown> = {}) =>
    api('POST', '/v1/evaluate', {
      idempotencyKey: randomUUID(),
      externalOrderId: `shop-${randomUUID()}`,
      transaction: { amount: 2500, currency: 'USD', responseCode: '51' },
      paymentMethod: { cardNumber, expiryMonth: 12, expiryYear: nextYear },
      ...overrides,
    });
  const events = async (orderId: string) => (await listOrderEvents(stack.db, orderId)).map((e) => e.name);
  const sent = (path: string | RegExp, idempotencyKey?: string) =>
    network.requests.filter(
      (r) =>
        (typeof path === 'string' ? r.path === path : path.test(r.path)) &&
        (idempotencyKey === undefined || r.idempotencyKey === idempotencyKey),
    );

  it('CIT sale: APPROVED, Completed with order.completed; one confirmed PaymentIntent keyed by the attempt', async () => {
    const res = await evaluate(CARDS.approves);
    expect(res.body).toMatchObject({ outcome: 'APPROVED', orderStatus: 7, orderStatusName: 'Completed' });
    const { orderId, externalOrderId } = res.body;
    expect(await events(orderId)).toEqual(['order.completed']);

    // The processor's key is the ledger row's id, written before the call (docs/architecture.md).
    const key = await chargeKey(stack.db, orderId, 'sale', 1);
    const [paymentMethod] = sent('/v1/payment_methods', `${key}:payment-method`);
    expect(paymentMethod).toMatchObject({ status: 200, params: { type: 'card', 'card[number]': '<card number>' } });
    const [intent, ...again] = sent('/v1/payment_intents', key);
    expect(again).toEqual([]);
    expect(intent).toMatchObject({
      status: 200,
      params: {
        amount: '2500',
        currency: 'usd',
        confirm: 'true',
        capture_method: 'automatic',
        'allowed_payment_method_types[0]': 'card',
        'metadata[attempt]': key,
      },
    });
    expect(intent?.params).not.toHaveProperty('off_session');

    // The card number went to Stripe from the activity only: never into the workflow's history.
    const history = await stack.client.workflow.getHandle(orderWorkflowId(mid, externalOrderId)).fetchHistory();
    expect(JSON.stringify(history)).not.toContain(CARDS.approves);
    expect(stack.logs.text()).not.toContain(CARDS.approves);
  });

  it('authorize + capture: CAPTUREREQUIRED, then Completed; manual capture, captured with the capture key', async () => {
    const res = await evaluate(CARDS.approves, { transactionType: 'AUTHORIZATION' });
    expect(res.body).toMatchObject({ outcome: 'CAPTUREREQUIRED', orderStatus: 5 });
    const { orderId } = res.body;
    const authorization = await chargeKey(stack.db, orderId, 'authorization', 1);
    expect(sent('/v1/payment_intents', authorization)[0]?.params.capture_method).toBe('manual');

    const captured = await api('POST', '/v1/capture', { idempotencyKey: randomUUID(), orderId });
    expect(captured.body).toMatchObject({
      status: 'APPROVED',
      orderStatus: 7,
      amounts: { authorized: 2500, captured: 2500 },
    });
    expect(await events(orderId)).toEqual(['order.capturerequired', 'order.completed']);
    const [capture] = sent(
      /^\/v1\/payment_intents\/pi_\w+\/capture$/,
      await chargeKey(stack.db, orderId, 'capture', 1),
    );
    expect(capture).toMatchObject({ status: 200, params: { amount_to_capture: '2500' } });
  });

  it('void: cancelling an authorization cancels its PaymentIntent; Cancelled with order.cancelled', async () => {
    const { orderId } = (await evaluate(CARDS.approves, { transactionType: 'AUTHORIZATION' })).body;
    const cancelled = await api('POST', `/v1/orders/${orderId}/cancel`, {});
    expect(cancelled.status).toBe(200);
    expect((await api('GET', `/v1/orders/${orderId}`)).body.status).toBe(2);
    expect(await events(orderId)).toEqual(['order.capturerequired', 'order.cancelled']);
    const voidKey = await chargeKey(stack.db, orderId, 'void', 1);
    expect(sent(/^\/v1\/payment_intents\/pi_\w+\/cancel$/, voidKey)).toHaveLength(1);
  });

  it('refund: a Stripe refund of the PaymentIntent keyed by the refund id; order.refunded', async () => {
    const { orderId } = (await evaluate(CARDS.approves)).body;
    const refund = await api('POST', `/v1/orders/${orderId}/refund`, {
      amountToRefund: 10.1,
      idempotencyKey: randomUUID(),
    });
    expect(refund.body).toMatchObject({ amount: 1010, refundedAmount: 1010, status: 'APPROVED', orderStatus: 7 });
    expect(await events(orderId)).toEqual(['order.completed', 'order.refunded']);
    const [request] = sent('/v1/refunds', refund.body.transactionId);
    expect(request).toMatchObject({ status: 200, params: { amount: '1010' } });
    expect(request?.params.payment_intent).toMatch(/^pi_/);
  });

  it('a refund Stripe refuses for good (a disputed charge) is 409011, its amount released; nothing announced', async () => {
    const { orderId } = (await evaluate(CARDS.approves)).body; // 25.00 USD, captured
    const disputed = network.refuseRefundsOf(1234);
    try {
      const request = { amountToRefund: '12.34', idempotencyKey: randomUUID() };
      const refused = await api('POST', `/v1/orders/${orderId}/refund`, request);
      expect([refused.status, refused.body.error?.id, refused.body.error?.orderStatus]).toEqual([409, '409011', 7]);
      // Asked once: a refusal for good is not retried.
      expect(
        sent('/v1/refunds')
          .filter((r) => r.params.amount === '1234')
          .map((r) => r.status),
      ).toEqual([400]);
      expect(await stack.db('refunds').where({ order_id: orderId })).toMatchObject([{ amount: 1234, state: 'failed' }]);
      expect((await api('POST', `/v1/orders/${orderId}/refund`, request)).text).toBe(refused.text);
    } finally {
      disputed.allow();
    }
    // Nothing stays reserved: the whole captured amount may still be refunded.
    const full = await api('POST', `/v1/orders/${orderId}/refund`, {});
    expect(full.body).toMatchObject({ amount: 2500, refundedAmount: 2500, status: 'APPROVED' });
    expect(await events(orderId)).toEqual(['order.completed', 'order.refunded']);
  });

  it('a capture Stripe refuses for good (a released authorization) is 409012, asked once; the cancel after it is done', async () => {
    const { orderId } = (await evaluate(CARDS.approves, { transactionType: 'AUTHORIZATION' })).body;
    const lapsed = network.lapseAuthorizations();
    try {
      const request = { idempotencyKey: randomUUID(), orderId };
      const refused = await api('POST', '/v1/capture', request);
      expect([refused.status, refused.body.error?.id, refused.body.error?.orderStatus]).toEqual([409, '409012', 5]);
      const captureKey = await chargeKey(stack.db, orderId, 'capture', 1);
      // Asked once: a refusal for good is not retried; the ledger row says so, with Stripe's code.
      expect(sent(/^\/v1\/payment_intents\/pi_\w+\/capture$/, captureKey).map((r) => r.status)).toEqual([400]);
      expect(await stack.db('charges').where({ id: captureKey })).toMatchObject([
        { state: 'answered', result: 'refused', processor_decline_code: 'payment_intent_unexpected_state' },
      ]);
      expect((await api('POST', '/v1/capture', request)).text).toBe(refused.text);
      const order = (await api('GET', `/v1/orders/${orderId}`)).body;
      expect([order.status, order.amounts.captured]).toEqual([5, 0]);

      // Stripe released the authorization: its cancel is refused as already done, which is the void.
      const cancelled = await api('POST', `/v1/orders/${orderId}/cancel`, {});
      expect(cancelled.status).toBe(200);
      const voidKey = await chargeKey(stack.db, orderId, 'void', 1);
      expect(sent(/^\/v1\/payment_intents\/pi_\w+\/cancel$/, voidKey).map((r) => r.status)).toEqual([400]);
      expect(await stack.db('charges').where({ id: voidKey })).toMatchObject([{ state: 'answered', result: 'done' }]);
    } finally {
      lapsed.restore();
    }
    expect((await api('GET', `/v1/orders/${orderId}`)).body.status).toBe(2);
    expect(await events(orderId)).toEqual(['order.capturerequired', 'order.cancelled']);
  });

  it('a void Stripe refuses for good (captured at Stripe outside the service) is 409013, asked once: the order a Problem', async () => {
    const { orderId } = (await evaluate(CARDS.approves, { transactionType: 'AUTHORIZATION' })).body;
    const captured = network.captureAuthorizationsOutside();
    try {
      const request = { idempotencyKey: randomUUID() };
      const refused = await api('POST', `/v1/orders/${orderId}/cancel`, request);
      expect([refused.status, refused.body.error?.id, refused.body.error?.orderStatus]).toEqual([409, '409013', 3]);
      // Asked once; the refusal on the void's row with Stripe's code, the authorization still standing.
      const voidKey = await chargeKey(stack.db, orderId, 'void', 1);
      expect(sent(/^\/v1\/payment_intents\/pi_\w+\/cancel$/, voidKey).map((r) => r.status)).toEqual([400]);
      expect(await stack.db('charges').where({ id: voidKey })).toMatchObject([
        { state: 'answered', result: 'refused', processor_decline_code: 'payment_intent_unexpected_state' },
      ]);
      const authorizationKey = await chargeKey(stack.db, orderId, 'authorization', 1);
      expect(await stack.db('charges').where({ id: authorizationKey })).toMatchObject([
        { state: 'answered', result: 'approved' },
      ]);
      expect((await api('POST', `/v1/orders/${orderId}/cancel`, request)).text).toBe(refused.text);
    } finally {
      captured.restore();
    }
    // Never Cancelled over money that stands: an operator's (docs/runbook.md), with no webhook.
    const order = (await api('GET', `/v1/orders/${orderId}`)).body;
    expect([order.status, order.statusName]).toEqual([3, 'PROBLEM']);
    expect(await events(orderId)).toEqual(['order.capturerequired']);
    const another = await api('POST', `/v1/orders/${orderId}/cancel`, { idempotencyKey: randomUUID() });
    expect([another.status, another.body.error?.id]).toEqual([409, '409005']); // not cancellable
  });

  it("sends amounts in Stripe's units: ISK x100 (authorize, capture, refund), MGA in whole ariary; never one it cannot take", async () => {
    // ISK has no minor unit in ISO 4217 (ours) but keeps two decimals at Stripe.
    const isk = await evaluate(CARDS.approves, {
      transactionType: 'AUTHORIZATION',
      transaction: { amount: 5000, currency: 'ISK', responseCode: '51' },
    });
    expect(isk.body).toMatchObject({ outcome: 'CAPTUREREQUIRED' });
    const authorization = await chargeKey(stack.db, isk.body.orderId, 'authorization', 1);
    expect(sent('/v1/payment_intents', authorization)[0]?.params).toMatchObject({ amount: '500000', currency: 'isk' });
    const captured = await api('POST', '/v1/capture', { idempotencyKey: randomUUID(), orderId: isk.body.orderId });
    expect(captured.body).toMatchObject({ status: 'APPROVED', amounts: { authorized: 5000, captured: 5000 } });
    const captureKey = await chargeKey(stack.db, isk.body.orderId, 'capture', 1);
    expect(sent(/^\/v1\/payment_intents\/pi_\w+\/capture$/, captureKey)[0]?.params.amount_to_capture).toBe('500000');
    const refund = await api('POST', `/v1/orders/${isk.body.orderId}/refund`, {
      amountToRefund: 1000,
      idempotencyKey: randomUUID(),
    });
    expect(refund.body).toMatchObject({ amount: 1000, status: 'APPROVED' });
    expect(sent('/v1/refunds', refund.body.transactionId)[0]?.params.amount).toBe('100000');

    // MGA has two decimals in ISO 4217, none at Stripe.
    const mga = await evaluate(CARDS.approves, {
      transaction: { amount: 150_000, currency: 'MGA', responseCode: '51' },
    });
    expect(mga.body).toMatchObject({ outcome: 'APPROVED' });
    const sale = await chargeKey(stack.db, mga.body.orderId, 'sale', 1);
    expect(sent('/v1/payment_intents', sale)[0]?.params).toMatchObject({ amount: '1500', currency: 'mga' });

    // 1,500.50 ariary cannot be charged exactly: refused as Stripe would refuse it, never rounded.
    const before = network.requests.length;
    const fraction = await evaluate(CARDS.approves, {
      transaction: { amount: 150_050, currency: 'MGA', responseCode: '51' },
    });
    expect([fraction.status, fraction.body.error?.id]).toEqual([503, '503002']);
    expect(network.requests.length).toBe(before);
  });

  it('a capture or refund amount Stripe cannot take exactly is 400 before anything is reserved; the order goes on', async () => {
    // KWD: three decimals in ISO and at Stripe, which takes them only to the nearest ten.
    const kwd = await evaluate(CARDS.approves, {
      transactionType: 'AUTHORIZATION',
      transaction: { amount: 10_000, currency: 'KWD', responseCode: '51' },
    });
    expect(kwd.body).toMatchObject({ outcome: 'CAPTUREREQUIRED' });
    const { orderId } = kwd.body;
    const before = network.requests.length;
    const key = randomUUID();
    const odd = await api('POST', '/v1/capture', { idempotencyKey: key, orderId, amount: 1235 });
    expect([odd.status, odd.body.error?.id]).toEqual([400, '400002']);
    expect(odd.body.error?.field).toBe('amount');
    expect(network.requests.length).toBe(before);
    // Nothing was stored under the key: the mended capture may reuse it.
    const captured = await api('POST', '/v1/capture', { idempotencyKey: key, orderId, amount: 1230 });
    expect(captured.body).toMatchObject({ status: 'APPROVED', amounts: { captured: 1230 } });

    const refundsBefore = sent('/v1/refunds').length;
    const refund = await api('POST', `/v1/orders/${orderId}/refund`, {
      amountToRefund: '0.105',
      idempotencyKey: randomUUID(),
    });
    expect([refund.status, refund.body.error?.id]).toEqual([400, '400002']);
    const order = (await api('GET', `/v1/orders/${orderId}`)).body;
    expect(order.amounts).toMatchObject({ captured: 1230, refunded: 0 });
    expect(sent('/v1/refunds')).toHaveLength(refundsBefore);
    const refunded = await api('POST', `/v1/orders/${orderId}/refund`, {
      amountToRefund: '0.1',
      idempotencyKey: randomUUID(),
    });
    expect(refunded.body).toMatchObject({ amount: 100, status: 'APPROVED' });
    expect(sent('/v1/refunds', refunded.body.transactionId)[0]?.params.amount).toBe('100');
  });

  it('CIT: a required authentication answers CHALLENGE; a do-not-retry decline answers DECLINED with its code', async () => {
    const challenge = await evaluate(CARDS.challenge);
    expect(challenge.body).toMatchObject({ outcome: 'CHALLENGE' });
    expect(await events(challenge.body.orderId)).toEqual(['challenge.presented']);

    const declined = await evaluate(CARDS.doNotTryAgain);
    expect(declined.body).toMatchObject({ outcome: 'DECLINED', orderStatusName: 'Declined' });
    expect((await api('GET', `/v1/orders/${declined.body.orderId}`)).body.status).toBe(8);
    // The network's code from Stripe's card_error is the order's response code.
    const row = await stack.db('orders').where({ id: declined.body.orderId }).first();
    expect(row).toMatchObject({ response_code: '05', service_attempts: 1 });
    const declinedKey = await chargeKey(stack.db, declined.body.orderId, 'sale', 1);
    expect(sent('/v1/payment_intents', declinedKey)[0]?.status).toBe(402);
  });

  it('Sync MIT: authorized off-session, captured by a further evaluate; a closed window voids the PaymentIntent', async () => {
    const sync = await seedMerchant(stack.db);
    const syncToken = await accessToken(stack.baseUrl, await seedKey(stack.db, sync));
    await api('PUT', `/v1/merchants/${sync.mid}/settings`, { processor: 'stripe', mitEvaluation: 'sync' }, syncToken);
    const syncBody = (seconds: number, cardNumber: string = CARDS.approves) => ({
      idempotencyKey: randomUUID(),
      externalOrderId: `shop-${randomUUID()}`,
      isMIT: true,
      isRecurring: true,
      subscription: { intervalCount: 1 },
      expiryDateUtc: new Date(Date.now() + seconds * 1000).toISOString(),
      transaction: { amount: 2500, currency: 'USD', responseCode: '51' },
      paymentMethod: { cardNumber, expiryMonth: 12, expiryYear: nextYear },
    });

    const inTime = syncBody(60);
    const first = await api('POST', '/v1/evaluate', inTime, syncToken);
    expect(first.body).toMatchObject({ outcome: 'CAPTUREREQUIRED', orderStatus: 5 });
    const { orderId } = first.body;
    expect(
      sent('/v1/payment_intents', await chargeKey(stack.db, orderId, 'authorization', 1))[0]?.params,
    ).toMatchObject({
      off_session: 'true',
      capture_method: 'manual',
    });
    const again = await api('POST', '/v1/evaluate', { ...inTime, idempotencyKey: randomUUID() }, syncToken);
    expect(again.body).toMatchObject({ orderId, outcome: 'APPROVED', orderStatus: 7 });
    const captureKey = await chargeKey(stack.db, orderId, 'capture', 1);
    expect(sent(/^\/v1\/payment_intents\/pi_\w+\/capture$/, captureKey)).toHaveLength(1);
    expect(await events(orderId)).toEqual(['order.capturerequired', 'order.completed']);

    const late = syncBody(2);
    const rescued = await api('POST', '/v1/evaluate', late, syncToken);
    expect(rescued.body.outcome).toBe('CAPTUREREQUIRED');
    // The cutoff is a moment on the clock: wait until it has passed, then ask again.
    await eventually(
      async () => Date.now(),
      (now) => now > Date.parse(late.expiryDateUtc),
      { describe: 'the Sync MIT window to close', timeoutMs: 10_000 },
    );
    const tooLate = await api('POST', '/v1/evaluate', { ...late, idempotencyKey: randomUUID() }, syncToken);
    expect(tooLate.body).toMatchObject({ orderId: rescued.body.orderId, outcome: 'DECLINED', orderStatus: 2 });
    expect(await events(rescued.body.orderId)).toEqual(['order.capturerequired', 'order.expired']);
    const expiredVoid = await chargeKey(stack.db, rescued.body.orderId, 'void', 1);
    expect(sent(/^\/v1\/payment_intents\/pi_\w+\/cancel$/, expiredVoid)).toHaveLength(1);

    // A capture Stripe refuses for good (the authorization released there): the rescue ends now.
    const released = syncBody(60);
    const authorized = await api('POST', '/v1/evaluate', released, syncToken);
    expect(authorized.body.outcome).toBe('CAPTUREREQUIRED');
    const lapsed = network.lapseAuthorizations();
    try {
      const refused = await api('POST', '/v1/evaluate', { ...released, idempotencyKey: randomUUID() }, syncToken);
      expect(refused.body).toMatchObject({ orderId: authorized.body.orderId, outcome: 'DECLINED', orderStatus: 2 });
    } finally {
      lapsed.restore();
    }
    expect(await events(authorized.body.orderId)).toEqual(['order.capturerequired', 'order.expired']);
    const refusedCapture = await chargeKey(stack.db, authorized.body.orderId, 'capture', 1);
    expect(sent(/^\/v1\/payment_intents\/pi_\w+\/capture$/, refusedCapture).map((r) => r.status)).toEqual([400]);
  });

  it('the processor setting is validated: an unknown one is 400 naming the field, and changes nothing', async () => {
    const res = await api('PUT', `/v1/merchants/${mid}/settings`, { processor: 'paypal' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ id: '400002', field: 'processor' });
    expect((await api('GET', `/v1/merchants/${mid}/settings`)).body.processor).toBe('stripe');
  });

  it('a merchant with no processor still answers 503002 in production, and nothing reaches Stripe', async () => {
    const other = await seedMerchant(stack.db);
    const otherToken = await accessToken(stack.baseUrl, await seedKey(stack.db, other));
    const before = network.requests.length;
    const res = await callApi(stack.baseUrl, otherToken, 'POST', '/v1/evaluate', {
      idempotencyKey: randomUUID(),
      externalOrderId: `shop-${randomUUID()}`,
      transaction: { amount: 2500, currency: 'USD', responseCode: '51' },
      paymentMethod: { cardNumber: CARDS.approves, expiryMonth: 12, expiryYear: nextYear },
    });
    expect(res.status).toBe(503);
    expect(res.body.error.id).toBe('503002');
    // The charge is decided before the answer: a call to Stripe would already be recorded.
    expect(network.requests.length).toBe(before);
  });
});
