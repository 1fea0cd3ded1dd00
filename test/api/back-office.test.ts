import { randomUUID } from 'node:crypto';
import { startReceiver } from '../../scripts/receivers/https-receiver';
import { APPLICATION_STATUSES, type ApplicationAction, type ApplicationStatus } from '../../src/domain/applications';
import { callApi } from '../helpers/api-client';
import { eventually } from '../helpers/eventually';
import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { outboxSettled } from '../helpers/outbox';
import { startTestStack, type TestStack } from '../helpers/stack';

const ADMIN = `admin-${randomUUID()}-${randomUUID()}`;

describe('applications, disputes and challenges through the real API', () => {
  let stack: TestStack;
  let partner: Awaited<ReturnType<typeof seedMerchant>>;
  let partnerToken: string;
  let merchantToken: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    stack = await startTestStack({ env: { ADMIN_API_TOKEN: ADMIN } });
    partner = await seedMerchant(stack.db);
    partnerToken = await accessToken(stack.baseUrl, await seedKey(stack.db, { pid: partner.pid }));
    merchantToken = await accessToken(stack.baseUrl, await seedKey(stack.db, partner));
    receiver = await startReceiver(200);
    // The partner's own endpoint receives application events; the merchant's, the rest.
    await call('POST', '/v1/webhooks', { url: receiver.url, events: ['*'] }, partnerToken);
    await call('POST', '/v1/webhooks', { url: receiver.url, events: ['*'] }, merchantToken);
  });
  afterAll(async () => {
    await receiver?.stop();
    await stack?.stop();
  });

  const call = (method: string, path: string, body?: unknown, token = partnerToken) =>
    callApi(stack.baseUrl, token, method, path, body);
  const matching = (predicate: (e: Record<string, unknown>) => boolean) =>
    receiver.received.map((r) => JSON.parse(r.body) as Record<string, unknown>).filter(predicate);
  /**
   * The envelopes matching `predicate` once one has arrived and the relay is idle (every event
   * fanned out, every delivery settled): the count is final, so a second copy cannot arrive later.
   */
  const received = async (what: string, predicate: (e: Record<string, unknown>) => boolean) => {
    await eventually(
      () => matching(predicate),
      (found) => found.length > 0,
      { describe: `${what} at the receiver` },
    );
    await outboxSettled(stack.db);
    return matching(predicate);
  };

  describe('partner applications: exactly the interface transition table', () => {
    const business = { legalName: 'Shop Ltd', contactEmail: 'ops@shop.example', website: 'https://shop.example' };
    const act = (id: string, action: ApplicationAction) =>
      ['submit', 'cancel'].includes(action)
        ? call('POST', `/v1/applications/${id}/${action}`, {})
        : call('POST', `/v1/admin/applications/${id}/${action}`, {}, ADMIN);
    /** An application brought to `status` through allowed transitions. */
    async function applicationIn(status: ApplicationStatus): Promise<string> {
      const { body } = await call('POST', '/v1/applications', { business });
      const path: Record<ApplicationStatus, ApplicationAction[]> = {
        DRAFT: [],
        SUBMITTED: ['submit'],
        APPROVED: ['submit', 'approve'],
        DECLINED: ['submit', 'decline'],
        CONVERTED: ['submit', 'approve', 'convert'],
        CANCELED: ['cancel'],
      };
      for (const action of path[status]) expect((await act(body.id, action)).status).toBe(200);
      return body.id;
    }

    const allowed: Array<[ApplicationStatus, ApplicationAction, ApplicationStatus, string]> = [
      ['DRAFT', 'submit', 'SUBMITTED', 'application.submitted'],
      ['SUBMITTED', 'approve', 'APPROVED', 'application.approved'],
      ['SUBMITTED', 'decline', 'DECLINED', 'application.declined'],
      ['APPROVED', 'convert', 'CONVERTED', 'application.converted'],
      ...(['DRAFT', 'SUBMITTED', 'APPROVED', 'DECLINED', 'CONVERTED'] as const).map(
        (from) =>
          [from, 'cancel', 'CANCELED', 'application.canceled'] as [
            ApplicationStatus,
            ApplicationAction,
            ApplicationStatus,
            string,
          ],
      ),
    ];

    it.each(allowed)('%s --%s--> %s fires %s', async (from, action, to, event) => {
      const id = await applicationIn(from);
      const res = await act(id, action);
      expect(res.status).toBe(200);
      expect(res.body.status).toBe(to);
      const events = await received(
        `${event} of application ${id}`,
        (e) => (e.EventData as { ApplicationId?: string } | null)?.ApplicationId === id && e.Event === event,
      );
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ Pid: partner.pid, EventData: { Status: to, PreviousStatus: from } });
    });

    const actions: ApplicationAction[] = ['submit', 'cancel', 'approve', 'decline', 'convert'];
    const forbidden = APPLICATION_STATUSES.flatMap((from) =>
      actions
        .filter((action) => !allowed.some(([f, a]) => f === from && a === action))
        .map((action) => [from, action] as const),
    );
    it.each(forbidden)('%s --%s--> is refused with 409020 and changes nothing', async (from, action) => {
      const id = await applicationIn(from);
      const res = await act(id, action);
      expect(res.status).toBe(409);
      expect(res.body.error).toMatchObject({ id: '409020', applicationStatus: from });
      expect((await call('GET', `/v1/applications/${id}`)).body.status).toBe(from);
    });

    it("keeps the operator's decline reason when the partner cancels with its own (that goes in the event)", async () => {
      const id = await applicationIn('SUBMITTED');
      const declined = await call(
        'POST',
        `/v1/admin/applications/${id}/decline`,
        { reason: 'Website mismatch' },
        ADMIN,
      );
      expect(declined.body).toMatchObject({ status: 'DECLINED', decisionReason: 'Website mismatch' });
      const cancelled = await call('POST', `/v1/applications/${id}/cancel`, { reason: 'not needed' });
      expect(cancelled.body).toMatchObject({ status: 'CANCELED', decisionReason: 'Website mismatch' });
      const [event] = await received(
        `application.canceled of ${id}`,
        (e) => e.Event === 'application.canceled' && (e.EventData as { ApplicationId: string }).ApplicationId === id,
      );
      expect(event?.EventData).toMatchObject({ Reason: 'not needed', PreviousStatus: 'DECLINED' });
    });

    it('conversion creates the merchant, its first site and settings; the event carries the new Mid', async () => {
      const id = await applicationIn('CONVERTED');
      const app = (await call('GET', `/v1/applications/${id}`)).body;
      expect(app.mid).toMatch(/^[0-9a-f-]{36}$/);
      const settings = await call('GET', `/v1/merchants/${app.mid}/settings`);
      expect(settings.body).toMatchObject({ technicalContactEmail: 'ops@shop.example', defaultExpiryHours: 168 });
      expect((await call('GET', `/v1/merchants/${app.mid}/sites`)).body.data).toHaveLength(1);
      const [event] = await received(
        `application.converted of ${id}`,
        (e) => e.Event === 'application.converted' && (e.EventData as { ApplicationId: string }).ApplicationId === id,
      );
      expect(event?.Mid).toBe(app.mid);
    });

    it('keeps applications to partner keys and to their own partner; operators need the admin credential', async () => {
      expect((await call('POST', '/v1/applications', { business }, merchantToken)).body.error.id).toBe('403001');
      const id = await applicationIn('SUBMITTED');
      const other = await seedMerchant(stack.db);
      const otherPartner = await accessToken(stack.baseUrl, await seedKey(stack.db, { pid: other.pid }));
      expect((await call('GET', `/v1/applications/${id}`, undefined, otherPartner)).body.error.id).toBe('404022');
      expect((await call('POST', `/v1/admin/applications/${id}/approve`, {}, partnerToken)).body.error.id).toBe(
        '401010',
      );
      expect(
        (await call('GET', '/v1/applications?status=SUBMITTED')).body.data.map((a: { id: string }) => a.id),
      ).toContain(id);
    });
  });

  describe('disputes from the card networks (operator back office)', () => {
    it('raises chargeback.received (spec EventData), its reversal, and early warnings; never order.refunded', async () => {
      const order = await call(
        'POST',
        '/v1/evaluate',
        {
          idempotencyKey: randomUUID(),
          externalOrderId: `o-${randomUUID()}`,
          transaction: { amount: 3000, currency: 'EUR' },
          paymentMethod: { cardNumber: '4111111111111111', expiryMonth: 1, expiryYear: 2090 },
        },
        merchantToken,
      );
      const orderId = order.body.orderId;
      const chargeback = await call(
        'POST',
        `/v1/admin/orders/${orderId}/chargebacks`,
        { reason: '10.4 Fraud', rapidDisputeResolution: true },
        ADMIN,
      );
      expect(chargeback.status).toBe(201);
      const chargebacks = await received(
        'payment.chargeback.received',
        (e) => e.OrderId === orderId && e.Event === 'payment.chargeback.received',
      );
      expect(chargebacks).toHaveLength(1);
      expect(chargebacks[0]?.EventData).toEqual({
        DisputeDateTime: expect.any(String),
        Reason: 'Rapid Dispute Resolution: 10.4 Fraud',
        TransactionId: chargeback.body.id,
        InitialTransactionReference: expect.stringMatching(/^[0-9a-f-]{36}$/),
        Amount: 3000,
        Currency: 'EUR',
      });
      const reversed = await call('POST', `/v1/admin/chargebacks/${chargeback.body.id}/reverse`, {}, ADMIN);
      expect(reversed.status).toBe(200);
      expect(
        await received(
          'payment.chargeback.reversed',
          (e) => e.OrderId === orderId && e.Event === 'payment.chargeback.reversed',
        ),
      ).toHaveLength(1);
      expect((await call('POST', `/v1/admin/chargebacks/${chargeback.body.id}/reverse`, {}, ADMIN)).body.error.id).toBe(
        '409022',
      );
      await call(
        'POST',
        `/v1/admin/orders/${orderId}/early-warnings`,
        { reason: 'TC40 fraud report', amount: 3000 },
        ADMIN,
      );
      expect(
        await received(
          'payment.early_warning.received',
          (e) => e.OrderId === orderId && e.Event === 'payment.early_warning.received',
        ),
      ).toHaveLength(1);
      const events = (await stack.db('events').where({ order_id: orderId })).map((e) => e.name);
      expect(events).not.toContain('order.refunded');
      expect((await call('GET', `/v1/orders/${orderId}`, undefined, merchantToken)).body.status).toBe(7);
    });
  });

  describe('the cardholder challenge', () => {
    const challenged = async () =>
      (
        await call(
          'POST',
          '/v1/evaluate',
          {
            idempotencyKey: randomUUID(),
            externalOrderId: `c-${randomUUID()}`,
            transaction: { amount: 800, currency: 'USD' },
            paymentMethod: { cardNumber: '4000000000003220', expiryMonth: 1, expiryYear: 2090 },
          },
          merchantToken,
        )
      ).body as { orderId: string; orderSessionKey: string; outcome: string };

    it('attempted then passed: challenge.presented, .attempted, .passed, then order.completed', async () => {
      const order = await challenged();
      expect(order.outcome).toBe('CHALLENGE');
      const report = (result: string) =>
        fetch(`${stack.baseUrl}/v1/challenges/${order.orderSessionKey}/${result}`, { method: 'POST' });
      expect((await report('attempted')).status).toBe(200);
      const passed = await report('passed');
      expect(await passed.json()).toMatchObject({ orderId: order.orderId, status: 7, outcome: 'APPROVED' });
      const names = (await stack.db('events').where({ order_id: order.orderId }).orderBy('sequence')).map(
        (e) => e.name,
      );
      expect(names).toEqual(['challenge.presented', 'challenge.attempted', 'challenge.passed', 'order.completed']);
      const again = await report('passed');
      expect(again.status).toBe(409);
      expect(((await again.json()) as { error: { id: string } }).error.id).toBe('409021');
    });

    it('failed: challenge.failed and the order is declined; an unknown session key is 404', async () => {
      const order = await challenged();
      const failed = await fetch(`${stack.baseUrl}/v1/challenges/${order.orderSessionKey}/failed`, { method: 'POST' });
      expect(await failed.json()).toMatchObject({ status: 8, outcome: 'DECLINED' });
      const names = (await stack.db('events').where({ order_id: order.orderId }).orderBy('sequence')).map(
        (e) => e.name,
      );
      expect(names).toEqual(['challenge.presented', 'challenge.failed']);
      expect((await fetch(`${stack.baseUrl}/v1/challenges/${randomUUID()}/passed`, { method: 'POST' })).status).toBe(
        404,
      );
    });
  });
});
