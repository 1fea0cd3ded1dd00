import { randomUUID } from 'node:crypto';
import { listOrderEvents } from '../../src/db/repositories/events';
import { orderWorkflowId, refundWorkflowId } from '../../src/domain/orders/workflow-ids';
import { refundIdOf } from '../../src/orders/commands';
import { CLOSED, OrderClient } from '../../src/orders/order-client';
import { captureUpdate } from '../../src/workflows';
import { callApi } from '../helpers/api-client';
import { eventually } from '../helpers/eventually';
import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { orderRow } from '../helpers/order-row';
import { startTestStack, type TestStack } from '../helpers/stack';

const nextYear = new Date().getUTCFullYear() + 1;

describe('orders through the real API, worker, Temporal dev server and Postgres', () => {
  let stack: TestStack;
  let token: string;
  let mid: string;
  let syncToken: string;

  beforeAll(async () => {
    stack = await startTestStack();
    const merchant = await seedMerchant(stack.db);
    mid = merchant.mid;
    token = await accessToken(stack.baseUrl, await seedKey(stack.db, merchant));
    await api('PUT', `/v1/merchants/${mid}/settings`, { authorizeCapability: true });
    const syncMerchant = await seedMerchant(stack.db);
    syncToken = await accessToken(stack.baseUrl, await seedKey(stack.db, syncMerchant));
    await api('PUT', `/v1/merchants/${syncMerchant.mid}/settings`, { mitEvaluation: 'sync' }, syncToken);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const api = (method: string, path: string, body?: unknown, as = token) =>
    callApi(stack.baseUrl, as, method, path, body);

  const evaluateBody = (overrides: Record<string, unknown> = {}) => ({
    idempotencyKey: randomUUID(),
    externalOrderId: `shop-${randomUUID()}`,
    transaction: { amount: 2500, currency: 'USD', responseCode: '51' },
    paymentMethod: { cardNumber: '4111111111111111', expiryMonth: 12, expiryYear: nextYear },
    ...overrides,
  });
  /** Charge 2 of a declined order, sent on `cardToken` at `sentAt` and never answered (a ledger row). */
  const leaveUnansweredCharge = (
    orderId: string,
    externalOrderId: string,
    cardToken: string,
    sentAt: Date,
    id: string = randomUUID(),
  ) =>
    stack.db('charges').insert({
      id,
      order_id: orderId,
      merchant_id: mid,
      external_order_id: externalOrderId,
      kind: 'sale',
      attempt: 2,
      amount: 2500,
      currency: 'USD',
      state: 'unknown',
      result: null,
      network_code: null,
      advice: null,
      merchant_advice_code: null,
      processor_decline_code: null,
      processor_reference: null,
      card_fingerprint: null,
      request: { cardToken, mode: 'sale', flow: 'CIT', threeDSecure: null },
      created_at: sentAt,
      sent_at: sentAt,
      attempted_at: sentAt,
    });
  const events = async (orderId: string) => (await listOrderEvents(stack.db, orderId)).map((e) => e.name);
  const until = <T>(probe: () => Promise<T>, ok: (v: T) => boolean) =>
    eventually(probe, ok, { describe: 'the order to reach the awaited state' });

  describe('POST /v1/evaluate', () => {
    it('CIT approves: orderId, orderSessionKey, APPROVED; the order is Completed with order.completed', async () => {
      const res = await api('POST', '/v1/evaluate', evaluateBody());
      expect(res.status).toBe(200);
      // Command answers carry the outcome word in `status`, the order's status in orderStatus (issue 10).
      expect(res.body).toMatchObject({
        outcome: 'APPROVED',
        status: 'APPROVED',
        success: true,
        orderStatus: 7,
        orderStatusName: 'Completed',
      });
      expect(res.body.orderId).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.body.orderSessionKey).toBeTruthy();
      const order = await api('GET', `/v1/orders/${res.body.orderId}`);
      expect(order.body).toMatchObject({
        orderId: res.body.orderId,
        status: 7,
        statusName: 'SUCCESS',
        outcome: 'APPROVED',
        amounts: { captured: 2500 },
      });
      expect(order.body.confirmationId).toBeTruthy();
      expect(JSON.stringify(order.body)).not.toContain('4111111111111111');
      expect(await events(res.body.orderId)).toEqual(['order.completed']);
    });

    it('takes any GUID as an idempotencyKey, not only an RFC 4122 UUID; refuses what is no GUID', async () => {
      // Version and variant digits outside RFC 4122's (a GUID from another generator).
      const nonRfc = () => `${randomUUID().slice(0, 14)}1${randomUUID().slice(15, 19)}1${randomUUID().slice(20)}`;
      const guid = nonRfc();
      const body = evaluateBody({ idempotencyKey: guid });
      const first = await api('POST', '/v1/evaluate', body);
      expect([first.status, first.body.outcome]).toEqual([200, 'APPROVED']);
      const again = await api('POST', '/v1/evaluate', body);
      expect([again.status, again.headers.get('idempotent-replayed'), again.body.orderId]).toEqual([
        200,
        'true',
        first.body.orderId,
      ]);
      const refund = await api('POST', `/v1/orders/${first.body.orderId}/refund`, { idempotencyKey: nonRfc() });
      expect(refund.status).toBe(200);
      const notGuid = await api('POST', '/v1/evaluate', evaluateBody({ idempotencyKey: 'order-1234' }));
      expect([notGuid.status, notGuid.body.error?.field]).toEqual([400, 'idempotencyKey']);
    });

    it("logs a challenge report's path without its orderSessionKey (a credential for that order)", async () => {
      const card = { cardNumber: '4000000000003220', expiryMonth: 12, expiryYear: nextYear };
      const challenged = await api('POST', '/v1/evaluate', evaluateBody({ paymentMethod: card }));
      expect(challenged.body.outcome).toBe('CHALLENGE');
      const { orderSessionKey } = challenged.body;
      const reported = await fetch(`${stack.baseUrl}/v1/challenges/${orderSessionKey}/failed`, { method: 'POST' });
      expect(reported.status).toBe(200);
      const lines = stack.logs.lines.filter((l) => l.includes('/v1/challenges/'));
      expect(lines.at(-1)).toContain('"path":"/v1/challenges/:orderSessionKey/failed"');
      expect(stack.logs.text()).not.toContain(orderSessionKey);
    });

    it('logs an order named by its orderSessionKey (as the FlexCharge clients do) by its orderId, never the key', async () => {
      const card = { cardNumber: '4000000000003220', expiryMonth: 12, expiryYear: nextYear };
      const challenged = await api('POST', '/v1/evaluate', evaluateBody({ paymentMethod: card }));
      const { orderId, orderSessionKey } = challenged.body;
      expect((await api('GET', `/v1/orders/${orderSessionKey}`)).body.orderId).toBe(orderId);
      expect((await api('POST', '/v1/outcome', { orderSessionKey })).body.orderId).toBe(orderId);
      expect((await api('GET', `/v1/orders/${orderSessionKey}/webhook-deliveries`)).body.orderId).toBe(orderId);
      const lines = stack.logs.lines.filter((l) => l.includes('"msg":"request"') && l.includes(orderId));
      expect(lines.map((l) => JSON.parse(l).path)).toEqual([
        '/v1/orders/:orderReference',
        '/v1/outcome',
        '/v1/orders/:orderReference/webhook-deliveries',
      ]);
      // Refused before the order is looked up (no bearer, a bad body): masked all the same.
      const refused = [
        await fetch(`${stack.baseUrl}/v1//orders/${orderSessionKey}/refund`, { method: 'POST' }),
        await fetch(`${stack.baseUrl}/v1/orders/${orderSessionKey}`),
        await api('POST', `/v1/orders/${orderSessionKey}/refund`, { amountToRefund: -1 }),
      ];
      expect(refused.map((r) => r.status)).toEqual([401, 401, 400]);
      expect(stack.logs.text()).not.toContain(orderSessionKey);
      // An order named by its id is logged by it.
      await api('GET', `/v1/orders/${orderId}`);
      expect(stack.logs.lines.some((l) => l.includes(`"path":"/v1/orders/${orderId}"`))).toBe(true);
    });

    it('answers DECLINED, CHALLENGE, and 503 rescue_unavailable for the sandbox cards', async () => {
      const card = (cardNumber: string) => ({ paymentMethod: { cardNumber, expiryMonth: 12, expiryYear: nextYear } });
      expect((await api('POST', '/v1/evaluate', evaluateBody(card('4000000000000002')))).body.outcome).toBe('DECLINED');
      const challenge = await api('POST', '/v1/evaluate', evaluateBody(card('4000000000003220')));
      expect(challenge.body.outcome).toBe('CHALLENGE');
      expect(await events(challenge.body.orderId)).toEqual(['challenge.presented']);
      const refusedBody = evaluateBody(card('4000000000000119'));
      const unavailable = await api('POST', '/v1/evaluate', refusedBody);
      expect(unavailable.status).toBe(503);
      expect(unavailable.body.error.id).toBe('503002');
      expect(unavailable.headers.get('retry-after')).toBeNull();
      // The order is Problem: the processor refused the charge, so nothing was charged and a
      // further evaluate still says "fall back to the decline".
      const again = await api('POST', '/v1/evaluate', { ...refusedBody, idempotencyKey: randomUUID() });
      expect([again.status, again.body.error?.id]).toEqual([503, '503002']);
      // Had the charge gone unanswered instead (the workflow marks it so), it may stand: never 503002.
      await stack
        .db('orders')
        .where({ external_order_id: refusedBody.externalOrderId })
        .update({ charge_outcome_unknown: true });
      const unknown = await api('POST', '/v1/evaluate', { ...refusedBody, idempotencyKey: randomUUID() });
      expect([unknown.status, unknown.body.error?.id]).toEqual([500, '500010']);
    });

    it('validates the request naming the field, and creates nothing', async () => {
      const before = (await stack.db('orders').count<{ count: number }[]>('* as count'))[0]?.count;
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ idempotencyKey: 'nope' }, 'idempotencyKey'],
        [{ externalOrderId: undefined }, 'externalOrderId'],
        [{ orderId: 'other' }, 'orderId'],
        [{ transaction: { amount: 10.5, currency: 'USD' } }, 'transaction.amount'],
        [{ transaction: { amount: 100, currency: 'usd' } }, 'transaction.currency'],
        [{ isMIT: true, isRecurring: true }, 'subscription'],
        [{ expiryDateUtc: new Date(Date.now() - 1000).toISOString() }, 'expiryDateUtc'],
        [{ expiryDateUtc: new Date(Date.now() + 22 * 86_400_000).toISOString() }, 'expiryDateUtc'],
        // An HTTP date of the right shape that names no moment (a 500 once: Date threw).
        [{ expiryDateUtc: `Mon, 01 Foo ${nextYear} 10:00:00 GMT` }, 'expiryDateUtc'],
        [
          { paymentMethod: { cardNumber: '4111111111111112', expiryMonth: 1, expiryYear: nextYear } },
          'paymentMethod.cardNumber',
        ],
        [{ paymentMethod: { token: randomUUID() } }, 'paymentMethod.token'],
      ];
      const keys: string[] = [];
      for (const [override, field] of cases) {
        const body = evaluateBody(override);
        keys.push(String(body.idempotencyKey));
        const res = await api('POST', '/v1/evaluate', body);
        expect([field, res.status, res.body.error?.field]).toEqual([field, 400, field]);
      }
      // Refused by the checks on what the claim read (the token, the windows): the key was freed,
      // so none is stored and the same key with the mended request runs.
      const uuids = keys.filter((key) => /^[0-9a-f-]{36}$/.test(key));
      expect(await stack.db('idempotency_keys').whereIn('key', uuids).select('key')).toEqual([]);
      const mended = await api('POST', '/v1/evaluate', { ...evaluateBody(), idempotencyKey: keys.at(-1) });
      expect([mended.status, mended.body.outcome]).toEqual([200, 'APPROVED']);
      expect((await api('POST', '/v1/evaluate', { ...evaluateBody(), surprise: { ignored: true } })).status).toBe(200);
      const after = (await stack.db('orders').count<{ count: number }[]>('* as count'))[0]?.count;
      expect(after).toBe((before ?? 0) + 2);
    });

    it('accepts a token from /v1/tokenize and orderId as an alias of externalOrderId', async () => {
      const { externalOrderId: _e, ...body } = evaluateBody();
      const alias = `alias-${randomUUID()}`;
      const res = await api('POST', '/v1/evaluate', { ...body, orderId: alias });
      expect(res.body).toMatchObject({ externalOrderId: alias, outcome: 'APPROVED' });
    });

    it('async MIT answers SUBMITTED, and a near-term expiryDateUtc expires it: Cancelled (2) with order.expired', async () => {
      const res = await api(
        'POST',
        '/v1/evaluate',
        evaluateBody({
          isMIT: true,
          isRecurring: true,
          subscription: { intervalCount: 1 },
          expiryDateUtc: new Date(Date.now() + 3000).toISOString(),
          paymentMethod: { cardNumber: '4000000000009995', expiryMonth: 1, expiryYear: nextYear },
        }),
      );
      expect(res.body).toMatchObject({ outcome: 'SUBMITTED', status: 'SUBMITTED', orderStatus: 4 });
      const order = await until(
        () => api('GET', `/v1/orders/${res.body.orderId}`),
        (o) => o.body.status === 2,
      );
      expect(order.body).toMatchObject({ status: 2, statusName: 'CANCELLED', outcome: 'EXPIRED' });
      expect(await events(res.body.orderId)).toEqual(['order.expired']);
    });

    it('starts a checkout at task priority 1 and an async MIT rescue at 3, merchants taking turns', async () => {
      // Checkouts never queue behind retries; one merchant's backlog delays another's by its share.
      const started = async (body: ReturnType<typeof evaluateBody>) => {
        expect((await api('POST', '/v1/evaluate', body)).status).toBe(200);
        const handle = stack.client.workflow.getHandle(orderWorkflowId(mid, body.externalOrderId as string));
        return (await handle.describe()).priority;
      };
      expect(await started(evaluateBody())).toMatchObject({ priorityKey: 1, fairnessKey: mid });
      const declinesAlways = { cardNumber: '4000000000009995', expiryMonth: 1, expiryYear: nextYear };
      const mit = {
        isMIT: true,
        isRecurring: true,
        subscription: { intervalCount: 1 },
        paymentMethod: declinesAlways,
        expiryDateUtc: new Date(Date.now() + 3000).toISOString(), // closes, not left retrying
      };
      expect(await started(evaluateBody(mit))).toMatchObject({ priorityKey: 3, fairnessKey: mid });
    });

    it('a declined CIT order evaluated again with a higher attemptCount is a new attempt on the same order', async () => {
      const first = evaluateBody({
        attemptCount: 1,
        paymentMethod: { cardNumber: '4000000000009995', expiryMonth: 12, expiryYear: nextYear }, // 51 every time
      });
      const declined = await api('POST', '/v1/evaluate', first);
      expect(declined.body).toMatchObject({ status: 'DECLINED', orderStatusName: 'Declined' });
      const orderId = declined.body.orderId;

      // The same attempt again: answered from the order, not charged again.
      const same = await api('POST', '/v1/evaluate', { ...first, idempotencyKey: randomUUID() });
      expect(same.body).toMatchObject({ orderId, status: 'DECLINED' });
      expect((await stack.db('orders').where({ id: orderId }).first())?.service_attempts).toBe(1);

      // A first retry with the same card: re-scored and re-charged (a new processor key), declined again.
      const retry = await api('POST', '/v1/evaluate', { ...first, idempotencyKey: randomUUID(), attemptCount: 2 });
      expect(retry.body).toMatchObject({ orderId, status: 'DECLINED' });
      expect((await stack.db('orders').where({ id: orderId }).first())?.service_attempts).toBe(2);

      // A second retry with another card: approved, still the same order.
      const approved = await api('POST', '/v1/evaluate', {
        ...first,
        idempotencyKey: randomUUID(),
        attemptCount: 3,
        paymentMethod: { cardNumber: '4111111111111111', expiryMonth: 12, expiryYear: nextYear },
      });
      expect(approved.body).toMatchObject({ orderId, status: 'APPROVED', orderStatusName: 'Completed' });
      const transitions = await stack.db('order_transitions').where({ order_id: orderId }).orderBy('version');
      // (a status kept is not a transition: the second decline changed the attempts, not the status)
      expect(transitions.map((t) => `${t.from_status ?? '-'}>${t.to_status}`)).toEqual([
        '->Declined',
        'Declined>Completed',
      ]);
      expect(await events(orderId)).toEqual(['order.completed']);
      expect(await stack.db('orders').where({ external_order_id: first.externalOrderId })).toHaveLength(1);
      // Every charge of every attempt, from the charges ledger: what the network said, and its advice.
      const { attempts } = (await api('GET', `/v1/orders/${orderId}`)).body;
      expect(
        attempts.map((a: Record<string, unknown>) => [a.attempt, a.kind, a.state, a.result, a.networkCode, a.advice]),
      ).toEqual([
        [1, 'sale', 'answered', 'declined', '51', 'retryable'],
        [2, 'sale', 'answered', 'declined', '51', 'retryable'],
        [3, 'sale', 'answered', 'approved', null, null],
      ]);
      for (const a of attempts) expect(Date.parse(a.answeredAtUtc)).toBeGreaterThanOrEqual(Date.parse(a.createdAtUtc));
    });

    it("a new attempt first settles an earlier attempt's charge the order never recorded, and charges under a new key", async () => {
      const declines = { cardNumber: '4000000000009995', expiryMonth: 12, expiryYear: nextYear }; // 51 every time
      const first = evaluateBody({ attemptCount: 1, paymentMethod: declines });
      const declined = await api('POST', '/v1/evaluate', first);
      expect(declined.body).toMatchObject({ status: 'DECLINED', orderStatusName: 'Declined' });
      const orderId = declined.body.orderId;
      const approving = await api('POST', '/v1/evaluate', evaluateBody());
      const approvingToken = (await orderRow(stack.db, approving.body.orderId)).card_token;
      // Attempt 2's run sent its charge (another card) and closed with no answer, the order still
      // Declined at attempt 1: as a run before 2026-11-28 left it, or one whose processor never said.
      const leftOver = randomUUID();
      await leaveUnansweredCharge(orderId, first.externalOrderId, approvingToken, new Date(), leftOver);

      const retry = await api('POST', '/v1/evaluate', { ...first, idempotencyKey: randomUUID(), attemptCount: 3 });
      expect(retry.body).toMatchObject({ orderId, status: 'DECLINED' });
      const rows = await stack.db('charges').where({ order_id: orderId }).orderBy(['attempt', 'created_at']);
      // Charge 2 was sent again under its own key and card (approved), then refunded in full; the
      // new attempt is 3, under a key of its own, with its own card.
      expect(rows.map((r) => [r.attempt, r.kind, r.state, r.result])).toEqual([
        [1, 'sale', 'answered', 'declined'],
        [2, 'sale', 'reversed', 'approved'],
        [2, 'reversal', 'answered', 'done'],
        [3, 'sale', 'answered', 'declined'],
      ]);
      expect(rows[1]?.id).toBe(leftOver);
      expect(rows[3]?.request?.cardToken).not.toBe(approvingToken);
      expect((await orderRow(stack.db, orderId))?.service_attempts).toBe(3);
    });

    it.each([
      ['was first sent 21 hours before (its key may be forgotten): not sent again', 21, '4000000000009995'],
      ['is answered "unavailable" when sent again: left unknown', 0, '4000000000000119'],
    ])('a new attempt whose earlier charge %s is turned away, outcome not known', async (_case, hoursAgo, leftCard) => {
      const first = evaluateBody({
        attemptCount: 1,
        paymentMethod: { cardNumber: '4000000000009995', expiryMonth: 12, expiryYear: nextYear },
      });
      const declined = await api('POST', '/v1/evaluate', first);
      const orderId = declined.body.orderId;
      // The left-over charge's card, vaulted by an evaluate of its own.
      const other = evaluateBody({ paymentMethod: { cardNumber: leftCard, expiryMonth: 12, expiryYear: nextYear } });
      await api('POST', '/v1/evaluate', other);
      const leftOrder = await stack.db('orders').where({ external_order_id: other.externalOrderId }).first();
      if (!leftOrder) throw new Error(`the evaluate of card ${leftCard} made no order`);
      const sentAt = new Date(Date.now() - hoursAgo * 3_600_000 - 60_000);
      await leaveUnansweredCharge(orderId, first.externalOrderId, leftOrder.card_token, sentAt);
      const retry = await api('POST', '/v1/evaluate', { ...first, idempotencyKey: randomUUID(), attemptCount: 3 });
      expect(retry.status).toBe(500);
      expect(retry.body.error?.id).toBe('500010');
      const rows = await stack.db('charges').where({ order_id: orderId }).orderBy('attempt');
      expect(rows.map((r) => [r.attempt, r.state, r.result])).toEqual([
        [1, 'answered', 'declined'],
        [2, 'unknown', null],
      ]);
      // Sent again only while its key is trusted.
      expect(Number(rows[1]?.sent_at) > sentAt.getTime()).toBe(hoursAgo === 0);
      expect(await orderRow(stack.db, orderId)).toMatchObject({ status_name: 'Declined', service_attempts: 1 });
    });

    it("shows the card's retry budget from the charges ledger, and declines what it does not allow", async () => {
      // Mastercard, Merchant Advice Code 24: no attempt on the card for an hour (docs/network-rules.md).
      const card = { cardNumber: '5555555555550244', expiryMonth: 12, expiryYear: nextYear };
      const first = await api('POST', '/v1/evaluate', evaluateBody({ paymentMethod: card }));
      expect(first.body).toMatchObject({ status: 'DECLINED' });
      const order = await stack.db('orders').where({ id: first.body.orderId }).first();
      const vaulted = await stack.db('card_vault').where({ token: order?.card_token }).first();
      const declines = await stack
        .db('charges')
        .where({ merchant_id: mid, card_fingerprint: vaulted?.fingerprint, result: 'declined' })
        .orderBy('attempted_at');
      expect(declines).toMatchObject([{ order_id: first.body.orderId, merchant_advice_code: '24' }]);
      const lookup = (await api('GET', `/v1/orders/${first.body.orderId}`)).body;
      expect(lookup.retryBudget).toEqual({
        used: declines.length,
        limit: 20, // Mastercard, US and Canada: 20 declines in 24 hours
        resetsAt: new Date(Number(declines[0]?.attempted_at) + 24 * 3_600_000).toISOString(),
      });

      // Another order of the card within the hour: declined by the budget, no processor call.
      const second = await api('POST', '/v1/evaluate', evaluateBody({ paymentMethod: card }));
      expect(second.body).toMatchObject({ status: 'DECLINED' });
      const secondLookup = (await api('GET', `/v1/orders/${second.body.orderId}`)).body;
      expect(secondLookup.scoring.reasons).toContain('retry_budget_exhausted');
      expect(secondLookup.attempts).toEqual([]);
      expect(secondLookup.retryBudget).toEqual(lookup.retryBudget);

      // The card's vault token: the API reads its budget with the evaluate's other reads, so the
      // workflow declines it the same without a read of its own (its only local activity is the
      // read model's write); a card number's evaluate has the workflow read it.
      const byToken = await api('POST', '/v1/evaluate', evaluateBody({ paymentMethod: { token: order?.card_token } }));
      expect(byToken.body).toMatchObject({ status: 'DECLINED' });
      const tokenLookup = (await api('GET', `/v1/orders/${byToken.body.orderId}`)).body;
      expect(tokenLookup.scoring.reasons).toContain('retry_budget_exhausted');
      expect(tokenLookup.attempts).toEqual([]);
      const localActivities = async (orderId: string) => {
        const row = await stack.db('orders').where({ id: orderId }).first();
        const history = await stack.client.workflow
          .getHandle(orderWorkflowId(mid, row?.external_order_id as string))
          .fetchHistory();
        return (history.events ?? []).flatMap((e) => {
          const data = e.markerRecordedEventAttributes?.details?.data?.payloads?.[0]?.data;
          return data ? [/"activity_type":"(\w+)"/.exec(Buffer.from(data).toString())?.[1]] : [];
        });
      };
      expect(await localActivities(second.body.orderId)).toEqual(['cardRetryBudget', 'persistOrder']);
      expect(await localActivities(byToken.body.orderId)).toEqual(['persistOrder']);
    });
  });

  it("keeps the merchant's technical contact out of the order's workflow history", async () => {
    const contact = `ops-${randomUUID()}@merchant.example`;
    expect((await api('PUT', `/v1/merchants/${mid}/settings`, { technicalContactEmail: contact })).status).toBe(200);
    const body = evaluateBody();
    const res = await api('POST', '/v1/evaluate', body);
    expect(res.body).toMatchObject({ outcome: 'APPROVED' });
    const history = await stack.client.workflow.getHandle(orderWorkflowId(mid, body.externalOrderId)).fetchHistory();
    // Payloads as their JSON (the history's JSON form carries them in base64).
    const text = JSON.stringify(history.events, (k, v) =>
      k === 'data' && typeof v === 'string' ? Buffer.from(v, 'base64').toString() : v,
    );
    // The settings the order runs by are there; the contact is not.
    expect(text).toContain('captureWindowMinutes');
    expect(text).not.toContain(contact);
  });

  describe('idempotency', () => {
    it('replays the original response byte for byte within 24 hours', async () => {
      const body = evaluateBody();
      const first = await api('POST', '/v1/evaluate', body);
      const again = await api('POST', '/v1/evaluate', body);
      expect(again.status).toBe(first.status);
      expect(again.text).toBe(first.text);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(await stack.db('orders').where({ external_order_id: body.externalOrderId })).toHaveLength(1);
    });

    it("replays a finished evaluate's answer before the checks that refuse a new one", async () => {
      // The key's claim comes first (docs/idempotency.md): a setting changed since does not turn a
      // replay into a refusal, while a new key meets the new setting.
      const merchant = await seedMerchant(stack.db);
      const own = await accessToken(stack.baseUrl, await seedKey(stack.db, merchant));
      const settings = `/v1/merchants/${merchant.mid}/settings`;
      expect((await api('PUT', settings, { authorizeCapability: true }, own)).status).toBe(200);
      const body = evaluateBody({ transactionType: 'AUTHORIZATION' });
      const first = await api('POST', '/v1/evaluate', body, own);
      expect(first.status).toBe(200);
      expect((await api('PUT', settings, { authorizeCapability: false }, own)).status).toBe(200);
      const again = await api('POST', '/v1/evaluate', body, own);
      expect([again.status, again.text, again.headers.get('idempotent-replayed')]).toEqual([200, first.text, 'true']);
      const fresh = await api('POST', '/v1/evaluate', { ...body, idempotencyKey: randomUUID() }, own);
      expect([fresh.status, fresh.body.error?.id]).toEqual([403, '403003']);
    });

    it('answers 409 when the key is reused with a different payload', async () => {
      const body = evaluateBody();
      await api('POST', '/v1/evaluate', body);
      const reused = await api('POST', '/v1/evaluate', { ...body, transaction: { amount: 9999, currency: 'USD' } });
      expect(reused.status).toBe(409);
      expect(reused.body.error.id).toBe('409002');
    });

    it('creates one order from two concurrent identical evaluates (one answer, the other 409 or the replay)', async () => {
      const body = evaluateBody();
      const [a, b] = await Promise.all([api('POST', '/v1/evaluate', body), api('POST', '/v1/evaluate', body)]);
      expect([a.status, b.status].sort()).toEqual(a.status === b.status ? [200, 200] : [200, 409]);
      if (a.status === 200 && b.status === 200) expect(a.text).toBe(b.text);
      expect(await stack.db('orders').where({ external_order_id: body.externalOrderId })).toHaveLength(1);
    });

    it('creates one order when two evaluates with different keys name the same externalOrderId', async () => {
      const body = evaluateBody();
      const [a, b] = await Promise.all([
        api('POST', '/v1/evaluate', body),
        api('POST', '/v1/evaluate', { ...body, idempotencyKey: randomUUID() }),
      ]);
      expect(a.body.orderId).toBe(b.body.orderId);
      expect(await stack.db('orders').where({ external_order_id: body.externalOrderId })).toHaveLength(1);
      expect(await events(a.body.orderId)).toEqual(['order.completed']);
    });

    it('answers 503 with Retry-After (503001) when the idempotency store is unavailable, and changes nothing', async () => {
      const body = evaluateBody();
      const locker = await stack.db.transaction();
      try {
        await locker.raw('lock table idempotency_keys in access exclusive mode');
        const res = await api('POST', '/v1/evaluate', body);
        expect(res.status).toBe(503);
        expect(res.body.error.id).toBe('503001');
        expect(res.headers.get('retry-after')).toBe('1');
      } finally {
        await locker.rollback();
      }
      expect(await stack.db('orders').where({ external_order_id: body.externalOrderId })).toHaveLength(0);
      expect((await api('POST', '/v1/evaluate', body)).status).toBe(200);
    });
  });

  describe('capture, cancel, external-cancel and refund', () => {
    const authorize = async () => {
      const res = await api('POST', '/v1/evaluate', evaluateBody({ transactionType: 'AUTHORIZATION' }));
      expect(res.body).toMatchObject({ outcome: 'CAPTUREREQUIRED', status: 'CAPTUREREQUIRED', orderStatus: 5 });
      return res.body as { orderId: string; externalOrderId: string };
    };

    it('captures an authorized order: Completed, order.capturerequired then order.completed; a second capture is the first', async () => {
      const { orderId } = await authorize();
      // A capture in another currency is refused before its key is taken: the mended request reuses it.
      const key = randomUUID();
      const wrongCurrency = await api('POST', '/v1/capture', { idempotencyKey: key, orderId, currency: 'EUR' });
      expect([wrongCurrency.status, wrongCurrency.body.error?.field]).toEqual([400, 'currency']);
      const captured = await api('POST', '/v1/capture', { idempotencyKey: key, orderId, currency: 'USD' });
      expect(captured.status).toBe(200);
      expect(captured.body).toMatchObject({
        status: 'APPROVED',
        orderStatus: 7,
        amounts: { authorized: 2500, captured: 2500 },
      });
      expect(await events(orderId)).toEqual(['order.capturerequired', 'order.completed']);
      // Sent again under a new key (its answer lost): the capture made answers; nothing more moves.
      const again = await api('POST', '/v1/capture', { idempotencyKey: randomUUID(), orderId, amount: 2500 });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ status: 'APPROVED', orderStatus: 7, amounts: { captured: 2500 } });
      expect(await events(orderId)).toEqual(['order.capturerequired', 'order.completed']);
      expect(await stack.db('charges').where({ order_id: orderId, kind: 'capture' })).toHaveLength(1);
      const other = await api('POST', '/v1/capture', { idempotencyKey: randomUUID(), orderId, amount: 100 });
      expect(other.status).toBe(409);
      expect(other.body.error).toMatchObject({ id: '409004', orderStatus: 7, orderStatusName: 'Completed' });
    });

    it('refuses AUTHORIZATION without the authorize capability (403003)', async () => {
      await api('PUT', `/v1/merchants/${mid}/settings`, { authorizeCapability: false });
      try {
        expect(
          (await api('POST', '/v1/evaluate', evaluateBody({ transactionType: 'AUTHORIZATION' }))).body.error.id,
        ).toBe('403003');
      } finally {
        await api('PUT', `/v1/merchants/${mid}/settings`, { authorizeCapability: true });
      }
    });

    it('answers a capture sent again under its key with the first result, even after the workflow closed', async () => {
      // What a same-key retry meets when the first answer was lost (the API process died after the
      // capture ran): the Update named by the key is done, so it answers as it did, once.
      const { orderId } = await authorize();
      const { workflow_id: workflowId } = await orderRow(stack.db, orderId);
      const orders = new OrderClient(stack.client, stack.taskQueue);
      const key = randomUUID();
      const first = await orders.command(workflowId, captureUpdate, { amount: null }, key);
      expect(first).toMatchObject({ kind: 'captured', status: 'Completed', capturedAmount: 2500 });
      expect(await orders.command(workflowId, captureUpdate, { amount: null }, key)).toEqual(first);
      expect(await orders.command(workflowId, captureUpdate, { amount: null }, randomUUID())).toBe(CLOSED);
      expect(await events(orderId)).toEqual(['order.capturerequired', 'order.completed']);
    });

    it('captures once when four captures under different keys race: each answers that one capture', async () => {
      const { orderId } = await authorize();
      // The losers find the order busy and retry under their own key (the Update named by it) until
      // the winner closed the workflow: then the order Completed by that capture of the same amount
      // is their answer too (never 409009, never a second capture).
      const answers = await Promise.all(
        Array.from({ length: 4 }, () => api('POST', '/v1/capture', { idempotencyKey: randomUUID(), orderId })),
      );
      const summary = answers.map((a) =>
        a.status === 200 ? `200 ${a.body.orderStatus}` : `${a.status} ${a.body.error?.id} ${a.body.error?.orderStatus}`,
      );
      expect(summary).toEqual(['200 7', '200 7', '200 7', '200 7']);
      expect(await events(orderId)).toEqual(['order.capturerequired', 'order.completed']);
      expect(await stack.db('charges').where({ order_id: orderId, kind: 'capture' })).toHaveLength(1);
    });

    it('cancels with 200 and an empty body; cancel plus external-cancel give one cancellation; repeats are safe', async () => {
      const { orderId, externalOrderId } = await authorize();
      const [a, b] = await Promise.all([
        api('POST', `/v1/orders/${orderId}/cancel`, {}),
        api('POST', `/v1/orders/${encodeURIComponent(externalOrderId)}/external-cancel`),
      ]);
      expect([a.status, a.text, b.status, b.text]).toEqual([200, '', 200, '']);
      const repeat = await api('POST', `/v1/orders/${orderId}/cancel`);
      expect([repeat.status, repeat.text]).toEqual([200, '']);
      // One key through both routes is one operation: the second is its replay, not a reused key (409002).
      const idempotencyKey = randomUUID();
      const keyed = await api('POST', `/v1/orders/${encodeURIComponent(externalOrderId)}/external-cancel`, {
        idempotencyKey,
      });
      const sameKey = await api('POST', `/v1/orders/${orderId}/cancel`, { idempotencyKey });
      expect([keyed.status, sameKey.status, sameKey.headers.get('idempotent-replayed')]).toEqual([200, 200, 'true']);
      expect((await api('GET', `/v1/orders/${orderId}`)).body.status).toBe(2);
      expect(await events(orderId)).toEqual(['order.capturerequired', 'order.cancelled']);
    });

    it('refuses to cancel a completed CIT order (409005 with its status) and leaves it completed', async () => {
      const { orderId } = (await api('POST', '/v1/evaluate', evaluateBody())).body;
      const res = await api('POST', `/v1/orders/${orderId}/cancel`);
      expect(res.status).toBe(409);
      expect(res.body.error).toMatchObject({ id: '409005', orderStatus: 7, orderStatusName: 'Completed' });
      expect((await api('GET', `/v1/orders/${orderId}`)).body.status).toBe(7);
    });

    it('cancels an async MIT rescue in Processing by external-cancel, without the orderId', async () => {
      const body = evaluateBody({
        isMIT: true,
        isRecurring: true,
        subscription: {},
        paymentMethod: { cardNumber: '4000000000009995', expiryMonth: 1, expiryYear: nextYear },
      });
      const { orderId } = (await api('POST', '/v1/evaluate', body)).body;
      const res = await api('POST', `/v1/orders/${encodeURIComponent(body.externalOrderId)}/external-cancel`, {});
      expect([res.status, res.text]).toEqual([200, '']);
      expect(
        await until(
          () => events(orderId),
          (e) => e.length > 0,
        ),
      ).toEqual(['order.cancelled']);
      expect(
        (await api('POST', `/v1/orders/${encodeURIComponent('never-evaluated')}/external-cancel`)).body.error.id,
      ).toBe('404003');
      // An id no evaluate could have taken (over 200 characters) names no order either.
      expect((await api('POST', `/v1/orders/${'x'.repeat(1500)}/external-cancel`)).body.error?.id).toBe('404003');
      // Read as evaluate reads it: the spaces around an id are not part of it.
      const padded = await api(
        'POST',
        `/v1/orders/${encodeURIComponent(` ${body.externalOrderId} `)}/external-cancel`,
        {},
      );
      expect([padded.status, padded.text]).toEqual([200, '']);
    });

    it('refunds: amountToRefund in dollars converted exactly; partial needs a key; no over-refund; full refunds de-duplicated', async () => {
      const { orderId } = (await api('POST', '/v1/evaluate', evaluateBody())).body; // 25.00 USD
      const noKey = await api('POST', `/v1/orders/${orderId}/refund`, { amountToRefund: 10.1 });
      expect(noKey.status).toBe(400);
      expect(noKey.body.error).toMatchObject({ id: '400005', field: 'idempotencyKey' });
      const badAmount = await api('POST', `/v1/orders/${orderId}/refund`, {
        amountToRefund: '10.123',
        idempotencyKey: randomUUID(),
      });
      expect(badAmount.body.error.field).toBe('amountToRefund');

      const key = randomUUID();
      const partial = await api('POST', `/v1/orders/${orderId}/refund`, { amountToRefund: 10.1, idempotencyKey: key });
      expect(partial.status).toBe(200);
      expect(partial.body).toMatchObject({
        amount: 1010,
        refundedAmount: 1010,
        currency: 'USD',
        status: 'APPROVED',
        orderStatus: 7,
      });
      const replay = await api('POST', `/v1/orders/${orderId}/refund`, { amountToRefund: 10.1, idempotencyKey: key });
      expect(replay.text).toBe(partial.text);
      const over = await api('POST', `/v1/orders/${orderId}/refund`, {
        amountToRefund: '15.00',
        idempotencyKey: randomUUID(),
      });
      expect(over.status).toBe(409);
      expect(over.body.error.id).toBe('409006');

      const { orderId: second } = (await api('POST', '/v1/evaluate', evaluateBody())).body;
      const full = await api('POST', `/v1/orders/${second}/refund`, {});
      const fullAgain = await api('POST', `/v1/orders/${second}/refund`, { amountToRefund: '25' });
      expect(full.body).toMatchObject({
        amount: 2500,
        status: 'APPROVED',
        orderStatus: 6,
        orderStatusName: 'Returned',
      });
      expect(fullAgain.body.transactionId).toBe(full.body.transactionId);
      expect(await events(second)).toEqual(['order.completed', 'order.refunded']);
      const [refunded] = await listOrderEvents(stack.db, second).then((e) =>
        e.filter((x) => x.name === 'order.refunded'),
      );
      expect(refunded?.data).toMatchObject({ TransactionId: full.body.transactionId, Amount: 2500, Currency: 'USD' });
      // A merchant's refund call goes ahead of MIT retries, in its merchant's turn.
      const refund = stack.client.workflow.getHandle(refundWorkflowId(second, { kind: 'full' }));
      expect((await refund.describe()).priority).toMatchObject({ priorityKey: 2, fairnessKey: mid });
    });

    it("a partial refund's key sent again with another amount after its answer was lost is 409002, never the first's 200", async () => {
      const { orderId } = (await api('POST', '/v1/evaluate', evaluateBody())).body; // 25.00 USD
      const key = randomUUID();
      const first = await api('POST', `/v1/orders/${orderId}/refund`, { amountToRefund: '0.30', idempotencyKey: key });
      expect(first.body).toMatchObject({ amount: 30, status: 'APPROVED' });
      // The answer lost (a 500 500010 frees the key for a retry): the stored request is gone.
      expect(await stack.db('idempotency_keys').where({ merchant_id: mid, key }).delete()).toBe(1);
      const other = await api('POST', `/v1/orders/${orderId}/refund`, { amountToRefund: '0.50', idempotencyKey: key });
      expect([other.status, other.body.error?.id]).toEqual([409, '409002']);
      // The same request again is that refund, not a second one.
      const again = await api('POST', `/v1/orders/${orderId}/refund`, { amountToRefund: '0.30', idempotencyKey: key });
      expect(again.body).toMatchObject({ amount: 30, refundedAmount: 30, transactionId: first.body.transactionId });
      expect(await stack.db('refunds').where({ order_id: orderId })).toHaveLength(1);

      // 24 hours on (the refund made then, the key's record expired): the key is no longer the
      // first refund's to replay, and a new refund cannot take its id. 409002, nothing refunded.
      await stack
        .db('refunds')
        .where({ order_id: orderId })
        .update({ created_at: new Date(Date.now() - 25 * 3_600_000) });
      await stack.db('idempotency_keys').where({ merchant_id: mid, key }).delete();
      const later = await api('POST', `/v1/orders/${orderId}/refund`, { amountToRefund: '0.30', idempotencyKey: key });
      expect([later.status, later.body.error?.id]).toEqual([409, '409002']);
      expect(await stack.db('idempotency_keys').where({ merchant_id: mid, key })).toHaveLength(0);
      expect((await api('GET', `/v1/orders/${orderId}`)).body.amounts.refunded).toBe(30);
    });

    it("a partial refund's key is one key in either case: its retry in capitals is that refund, never a second", async () => {
      const { orderId } = (await api('POST', '/v1/evaluate', evaluateBody())).body; // 25.00 USD
      const key = randomUUID();
      const first = await api('POST', `/v1/orders/${orderId}/refund`, { amountToRefund: '0.30', idempotencyKey: key });
      expect(first.body).toMatchObject({ amount: 30, status: 'APPROVED' });
      // The answer lost (a 500 500010 frees the key), retried by a client that prints GUIDs in capitals.
      expect(await stack.db('idempotency_keys').where({ merchant_id: mid, key }).delete()).toBe(1);
      const upper = key.toUpperCase();
      const again = await api('POST', `/v1/orders/${orderId}/refund`, {
        amountToRefund: '0.30',
        idempotencyKey: upper,
      });
      expect(again.body).toMatchObject({ amount: 30, refundedAmount: 30, transactionId: first.body.transactionId });
      const other = await api('POST', `/v1/orders/${orderId}/refund`, {
        amountToRefund: '0.50',
        idempotencyKey: upper,
      });
      expect([other.status, other.body.error?.id]).toEqual([409, '409002']);
      expect(await stack.db('refunds').where({ order_id: orderId })).toHaveLength(1);

      // A refund reserved before keys were lowercased (2026-11-29) took its id from the key as sent:
      // that key sent again is that refund.
      const legacy = randomUUID().toUpperCase();
      const made = await api('POST', `/v1/orders/${orderId}/refund`, {
        amountToRefund: '0.20',
        idempotencyKey: legacy,
      });
      expect(made.body).toMatchObject({ amount: 20, refundedAmount: 50 });
      const legacyId = refundIdOf(orderId, legacy);
      await stack.db('refunds').where({ id: made.body.transactionId }).update({ id: legacyId });
      await stack.db('idempotency_keys').where({ merchant_id: mid, key: legacy.toLowerCase() }).delete();
      const retried = await api('POST', `/v1/orders/${orderId}/refund`, {
        amountToRefund: '0.20',
        idempotencyKey: legacy,
      });
      expect(retried.body).toMatchObject({ amount: 20, refundedAmount: 50, transactionId: legacyId });
      expect(await stack.db('refunds').where({ order_id: orderId })).toHaveLength(2);
    });

    it('refuses to refund an order that is not completed (409007)', async () => {
      const { orderId } = await authorize();
      expect((await api('POST', `/v1/orders/${orderId}/refund`, {})).body.error).toMatchObject({
        id: '409007',
        orderStatus: 5,
      });
    });
  });

  describe('Sync MIT', () => {
    const syncBody = (seconds: number) =>
      evaluateBody({
        isMIT: true,
        isRecurring: true,
        subscription: { intervalCount: 1 },
        expiryDateUtc: new Date(Date.now() + seconds * 1000).toISOString(),
      });

    it('a further evaluate before the cutoff captures; one after it answers DECLINED with status 2 and order.expired', async () => {
      const inTime = syncBody(60);
      const first = await api('POST', '/v1/evaluate', inTime, syncToken);
      expect(first.body).toMatchObject({ outcome: 'CAPTUREREQUIRED', orderStatus: 5 });
      const again = await api('POST', '/v1/evaluate', { ...inTime, idempotencyKey: randomUUID() }, syncToken);
      expect(again.body).toMatchObject({ orderId: first.body.orderId, outcome: 'APPROVED', orderStatus: 7 });

      const late = syncBody(2);
      const rescued = await api('POST', '/v1/evaluate', late, syncToken);
      expect(rescued.body.outcome).toBe('CAPTUREREQUIRED');
      // The cutoff is a moment on the clock: wait until it has passed, then ask again.
      await eventually(
        async () => Date.now(),
        (now) => now > Date.parse(String((late as Record<string, unknown>).expiryDateUtc)),
        { describe: 'the Sync MIT window to close', timeoutMs: 10_000 },
      );
      const tooLate = await api('POST', '/v1/evaluate', { ...late, idempotencyKey: randomUUID() }, syncToken);
      expect(tooLate.body).toMatchObject({
        orderId: rescued.body.orderId,
        outcome: 'DECLINED',
        status: 'DECLINED',
        orderStatus: 2,
      });
      const captureLate = await api(
        'POST',
        '/v1/capture',
        { idempotencyKey: randomUUID(), orderId: rescued.body.orderId },
        syncToken,
      );
      expect(captureLate.status).toBe(409);
      expect(await events(rescued.body.orderId)).toEqual(['order.capturerequired', 'order.expired']);
    });
  });

  describe('merchant isolation and lookup', () => {
    it('hides one merchants orders from another (404), for lookup and every command', async () => {
      const { orderId, externalOrderId } = (
        await api('POST', '/v1/evaluate', evaluateBody({ transactionType: 'AUTHORIZATION' }))
      ).body;
      const other = await seedMerchant(stack.db);
      const otherToken = await accessToken(stack.baseUrl, await seedKey(stack.db, other));
      for (const [method, path, body] of [
        ['GET', `/v1/orders/${orderId}`, undefined],
        ['POST', `/v1/orders/${orderId}/cancel`, {}],
        ['POST', `/v1/orders/${orderId}/refund`, {}],
        ['POST', '/v1/capture', { idempotencyKey: randomUUID(), orderId }],
        ['POST', `/v1/orders/${encodeURIComponent(externalOrderId)}/external-cancel`, {}],
        ['POST', '/v1/outcome', { orderId }],
      ] as const) {
        const res = await api(method, path, body, otherToken);
        expect([path, res.status, res.body.error.id]).toEqual([path, 404, '404003']);
      }
      expect((await api('GET', `/v1/orders/${orderId}`)).body.status).toBe(5);
    });

    it('POST /v1/outcome (deprecated) returns the order lookup body', async () => {
      const { orderId } = (await api('POST', '/v1/evaluate', evaluateBody())).body;
      const outcome = await api('POST', '/v1/outcome', { orderId });
      expect(outcome.headers.get('deprecation')).toBe('true');
      expect(outcome.body).toEqual((await api('GET', `/v1/orders/${orderId}`)).body);
    });
  });
});
