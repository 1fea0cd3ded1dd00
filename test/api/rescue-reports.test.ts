import { randomUUID } from 'node:crypto';
import { persistOrder } from '../../src/db/repositories/orders';
import type { OrderState } from '../../src/domain/orders/contracts';
import type { Flow, OrderStatusName, Outcome } from '../../src/domain/orders/status';
import { callApi } from '../helpers/api-client';
import { eventually } from '../helpers/eventually';
import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { startTestStack, type TestStack } from '../helpers/stack';

const ADMIN = `admin-${randomUUID()}-${randomUUID()}`;
const nextYear = new Date().getUTCFullYear() + 1;
const APPROVES = '4111111111111111';
const HARD_DECLINE = '4000000000000002';
const NEVER_FUNDED = '4000000000009995'; // an async MIT rescue stays Processing until its window ends

/** The hand-counted set lives on two past days, apart from the orders the real API makes today. */
const RANGE = 'from=2026-03-01T00:00:00Z&to=2026-03-03T00:00:00Z';
const at = (day: number, time: string) => `2026-03-0${day}T${time}.000Z`;

interface Seed {
  mid: string;
  pid: string;
  flow: Flow;
  currency: string;
  amount: number;
  status: OrderStatusName;
  outcome: Outcome;
  code: string;
  createdAt: string;
  updatedAt?: string;
  attempts?: number;
  authorized?: boolean;
  completedAt?: string;
  cancelledAt?: string;
  expiredAt?: string;
  /** A later write of an order already recorded. */
  orderId?: string;
  externalOrderId?: string;
  version?: number;
}

/** An order's read-model row written by the repository the order workflow's activity writes with. */
async function record(stack: TestStack, s: Seed): Promise<string> {
  const orderId = s.orderId ?? randomUUID();
  const externalOrderId = s.externalOrderId ?? `shop-${randomUUID()}`;
  const state: OrderState = {
    version: s.version ?? 2,
    orderId,
    orderSessionKey: randomUUID(),
    merchantId: s.mid,
    partnerId: s.pid,
    externalOrderId,
    isTestMode: true,
    flow: s.flow,
    transactionType: 'SALE',
    isMIT: s.flow !== 'CIT',
    isRecurring: s.flow !== 'CIT',
    status: s.status,
    outcome: s.outcome,
    amount: s.amount,
    currency: s.currency,
    authorizedAmount: s.authorized ? s.amount : 0,
    capturedAmount: s.completedAt ? s.amount : 0,
    refundedAmount: 0,
    card: { token: randomUUID(), brand: 'visa', bin: '411111', last4: '1111' },
    senseKey: null,
    responseCode: s.code,
    attemptCount: 1,
    serviceAttempts: s.attempts ?? 0,
    attempts: [],
    declinedAtUtc: s.createdAt,
    windowEndsAtUtc: s.flow === 'CIT' ? null : new Date(Date.parse(s.createdAt) + 7 * 86_400_000).toISOString(),
    captureBeforeUtc: null,
    confirmationId: s.completedAt ? randomUUID() : null,
    authorizationId: s.authorized ? `auth-${orderId}` : null,
    score: 50,
    reasons: [],
    deviceSignalsUsed: false,
    createdAtUtc: s.createdAt,
    updatedAtUtc: s.updatedAt ?? s.completedAt ?? s.expiredAt ?? s.cancelledAt ?? s.createdAt,
    completedAtUtc: s.completedAt ?? null,
    cancelledAtUtc: s.cancelledAt ?? null,
    expiredAtUtc: s.expiredAt ?? null,
  };
  await persistOrder(stack.db, { state, transition: null, events: [] });
  return orderId;
}

async function csv(
  stack: TestStack,
  token: string,
  path: string,
): Promise<{ status: number; type: string; lines: string[] }> {
  const res = await fetch(`${stack.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type') ?? '', lines: text.split('\r\n').slice(0, -1) };
}

describe('rescue reports: GET /v1/reports/rescues and the operator’s, through the real API', () => {
  jest.setTimeout(90_000);
  let stack: TestStack;
  let a: { pid: string; mid: string };
  let b: { pid: string; mid: string };
  let tokenA: string;
  let tokenB: string;
  let partnerToken: string;
  let openOrderId: string;

  const api = (token: string | undefined, path: string) => callApi(stack.baseUrl, token, 'GET', path);

  beforeAll(async () => {
    stack = await startTestStack({ env: { ADMIN_API_TOKEN: ADMIN } });
    a = await seedMerchant(stack.db);
    b = await seedMerchant(stack.db); // another partner's merchant
    tokenA = await accessToken(stack.baseUrl, await seedKey(stack.db, a));
    tokenB = await accessToken(stack.baseUrl, await seedKey(stack.db, b));
    partnerToken = await accessToken(stack.baseUrl, await seedKey(stack.db, { pid: a.pid }));
    const A = { mid: a.mid, pid: a.pid };
    const B = { mid: b.mid, pid: b.pid };
    const rescued = { status: 'Completed', outcome: 'APPROVED', authorized: true } as const;
    // Merchant A, 1 March.
    await record(stack, {
      ...A,
      ...rescued,
      flow: 'CIT',
      currency: 'USD',
      amount: 1000,
      code: '51',
      createdAt: at(1, '08:00:00'),
      attempts: 1,
      completedAt: at(1, '08:00:02'),
    });
    await record(stack, {
      ...A,
      flow: 'CIT',
      currency: 'EUR',
      amount: 2000,
      status: 'Declined',
      outcome: 'DECLINED',
      code: '05',
      createdAt: at(1, '09:00:00'),
      attempts: 1,
    });
    await record(stack, {
      ...A,
      ...rescued,
      flow: 'ASYNC_MIT',
      currency: 'USD',
      amount: 3000,
      code: '51',
      createdAt: at(1, '10:00:00'),
      attempts: 3,
      completedAt: at(1, '16:00:00'),
    });
    await record(stack, {
      ...A,
      ...rescued,
      flow: 'ASYNC_MIT',
      currency: 'EUR',
      amount: 4000,
      code: '51',
      createdAt: at(1, '12:00:00'),
      attempts: 4,
      completedAt: at(2, '12:00:00'),
    });
    await record(stack, {
      ...A,
      flow: 'ASYNC_MIT',
      currency: 'USD',
      amount: 5000,
      status: 'Cancelled',
      outcome: 'SUBMITTED',
      code: '05',
      createdAt: at(1, '13:00:00'),
      attempts: 7,
      cancelledAt: at(8, '13:00:00'),
      expiredAt: at(8, '13:00:00'),
    });
    // Merchant A, 2 March.
    await record(stack, {
      ...A,
      ...rescued,
      flow: 'ASYNC_MIT',
      currency: 'USD',
      amount: 6000,
      code: '61',
      createdAt: at(2, '00:00:00'),
      attempts: 1,
      completedAt: at(2, '00:01:00'),
    });
    await record(stack, {
      ...A,
      flow: 'ASYNC_MIT',
      currency: 'USD',
      amount: 7000,
      status: 'Declined',
      outcome: 'DECLINED',
      code: '14',
      createdAt: at(2, '01:00:00'),
    });
    await record(stack, {
      ...A,
      flow: 'SYNC_MIT',
      currency: 'EUR',
      amount: 8000,
      status: 'Capturerequired',
      outcome: 'CAPTUREREQUIRED',
      code: '51',
      createdAt: at(2, '02:00:00'),
      attempts: 1,
      authorized: true,
    });
    openOrderId = await record(stack, {
      ...A,
      flow: 'ASYNC_MIT',
      currency: 'GBP',
      amount: 9000,
      status: 'Processing',
      outcome: 'SUBMITTED',
      code: '51',
      createdAt: at(2, '06:00:00'),
      updatedAt: at(2, '07:00:30'),
      attempts: 2,
    });
    await record(stack, {
      ...A,
      flow: 'ASYNC_MIT',
      currency: 'USD',
      amount: 9500,
      status: 'Cancelled',
      outcome: 'SUBMITTED',
      code: '51',
      createdAt: at(2, '07:00:00'),
      attempts: 1,
      cancelledAt: at(2, '09:00:00'),
    });
    // Merchant B (another partner), 1 March.
    await record(stack, {
      ...B,
      ...rescued,
      flow: 'ASYNC_MIT',
      currency: 'USD',
      amount: 10000,
      code: '51',
      createdAt: at(1, '00:00:00'),
      attempts: 2,
      completedAt: at(1, '01:00:00'),
    });
    await record(stack, {
      ...B,
      flow: 'CIT',
      currency: 'USD',
      amount: 11000,
      status: 'Declined',
      outcome: 'DECLINED',
      code: '51',
      createdAt: at(1, '02:00:00'),
      attempts: 1,
    });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const figures = (f: Record<string, unknown>) => ({
    evaluated: f.evaluated,
    approved: f.approved,
    declined: f.declined,
    submitted: f.submitted,
    rescued: f.rescued,
    expired: f.expired,
    recovered: f.recovered,
    rescueRate: f.rescueRate,
    attemptsPerRescue: f.attemptsPerRescue,
    medianTimeToRescueSeconds: f.medianTimeToRescueSeconds,
  });

  it('counts merchant A’s orders by day as a hand count does, with its open rescue', async () => {
    const res = await api(tokenA, `/v1/reports/rescues?${RANGE}&groupBy=day`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      from: '2026-03-01T00:00:00.000Z',
      to: '2026-03-03T00:00:00.000Z',
      groupBy: 'day',
    });
    expect(figures(res.body.totals)).toEqual({
      evaluated: 10,
      approved: 2,
      declined: 2,
      submitted: 6,
      rescued: 3,
      expired: 1,
      recovered: [
        { currency: 'EUR', amount: 4000 },
        { currency: 'USD', amount: 9000 },
      ],
      rescueRate: 0.5,
      attemptsPerRescue: 8 / 3,
      medianTimeToRescueSeconds: 21600,
    });
    expect(res.body.groups.map((g: { key: string }) => g.key)).toEqual(['2026-03-01', '2026-03-02']);
    expect(figures(res.body.groups[0])).toEqual({
      evaluated: 5,
      approved: 1,
      declined: 1,
      submitted: 3,
      rescued: 2,
      expired: 1,
      recovered: [
        { currency: 'EUR', amount: 4000 },
        { currency: 'USD', amount: 3000 },
      ],
      rescueRate: 2 / 3,
      attemptsPerRescue: 3.5,
      medianTimeToRescueSeconds: 54000,
    });
    expect(figures(res.body.groups[1])).toEqual({
      evaluated: 5,
      approved: 1,
      declined: 1,
      submitted: 3,
      rescued: 1,
      expired: 0,
      recovered: [{ currency: 'USD', amount: 6000 }],
      rescueRate: 1 / 3,
      attemptsPerRescue: 1,
      medianTimeToRescueSeconds: 60,
    });
    // Its next retry: the schedule's 6 h slot, the first after its last write (the 1 h retry).
    expect(res.body.openRescues).toEqual({
      count: 1,
      items: [
        {
          orderId: openOrderId,
          externalOrderId: expect.any(String),
          amount: 9000,
          currency: 'GBP',
          attempts: 2,
          nextAttemptAt: '2026-03-02T12:00:00.000Z',
        },
      ],
    });
  });

  it('groups by decline code, flow and currency', async () => {
    const by = async (groupBy: string) => {
      const res = await api(tokenA, `/v1/reports/rescues?${RANGE}&groupBy=${groupBy}`);
      expect(res.status).toBe(200);
      return Object.fromEntries(
        res.body.groups.map((g: Record<string, unknown>) => [g.key, [g.evaluated, g.submitted, g.rescued, g.expired]]),
      );
    };
    expect(await by('declineCode')).toEqual({
      '05': [2, 1, 0, 1],
      '14': [1, 0, 0, 0],
      '51': [6, 4, 2, 0],
      '61': [1, 1, 1, 0],
    });
    expect(await by('flow')).toEqual({ ASYNC_MIT: [7, 6, 3, 1], CIT: [2, 0, 0, 0], SYNC_MIT: [1, 0, 0, 0] });
    expect(await by('currency')).toEqual({ EUR: [3, 1, 1, 0], GBP: [1, 1, 0, 0], USD: [6, 4, 2, 1] });
  });

  it('exports the same figures as CSV, one row per group and currency and a total per currency', async () => {
    const res = await csv(stack, tokenA, `/v1/reports/rescues?${RANGE}&groupBy=day&format=csv`);
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/^text\/csv/);
    expect(res.lines).toEqual([
      'row,key,currency,evaluated,approved,declined,submitted,rescued,expired,recovered,rescueRate,attemptsPerRescue,medianTimeToRescueSeconds',
      'group,2026-03-01,EUR,2,0,1,1,1,0,4000,1,4,86400',
      'group,2026-03-01,USD,3,1,0,2,1,1,3000,0.5,3,21600',
      'group,2026-03-02,EUR,1,1,0,0,0,0,0,,,',
      'group,2026-03-02,GBP,1,0,0,1,0,0,0,0,,',
      'group,2026-03-02,USD,3,0,1,2,1,0,6000,0.5,1,60',
      'total,,EUR,3,1,1,1,1,0,4000,1,4,86400',
      'total,,GBP,1,0,0,1,0,0,0,0,,',
      'total,,USD,6,1,1,4,2,1,9000,0.5,2,10830',
    ]);
  });

  it('shows merchant B none of A’s orders, in JSON or CSV', async () => {
    const res = await api(tokenB, `/v1/reports/rescues?${RANGE}`);
    expect(res.status).toBe(200);
    expect(figures(res.body.totals)).toMatchObject({
      evaluated: 2,
      declined: 1,
      submitted: 1,
      rescued: 1,
      recovered: [{ currency: 'USD', amount: 10000 }],
      medianTimeToRescueSeconds: 3600,
    });
    expect(res.body.openRescues).toEqual({ count: 0, items: [] });
    const rows = await csv(stack, tokenB, `/v1/reports/rescues?${RANGE}&groupBy=currency&format=csv`);
    expect(rows.lines.slice(1)).toEqual([
      'group,USD,USD,2,0,1,1,1,0,10000,1,2,3600',
      'total,,USD,2,0,1,1,1,0,10000,1,2,3600',
    ]);
  });

  it('gives the operator every merchant’s figures, narrowed by partner or merchant', async () => {
    const all = await api(ADMIN, `/v1/admin/reports/rescues?${RANGE}`);
    expect(all.status).toBe(200);
    // Other tests' orders share this database only outside the hand-counted days.
    expect(figures(all.body.totals)).toMatchObject({ evaluated: 12, submitted: 7, rescued: 4 });
    expect(all.body.totals.recovered).toEqual([
      { currency: 'EUR', amount: 4000 },
      { currency: 'USD', amount: 19000 },
    ]);
    expect(all.body.openRescues.items).toEqual([expect.objectContaining({ orderId: openOrderId, merchantId: a.mid })]);

    const ofB = await api(ADMIN, `/v1/admin/reports/rescues?${RANGE}&partnerId=${b.pid}`);
    expect(figures(ofB.body.totals)).toMatchObject({ evaluated: 2, submitted: 1, rescued: 1 });
    expect(ofB.body.openRescues.count).toBe(0);
    const ofA = await api(ADMIN, `/v1/admin/reports/rescues?${RANGE}&partnerId=${a.pid}`);
    expect(figures(ofA.body.totals)).toMatchObject({ evaluated: 10, submitted: 6, rescued: 3 });
    const none = await api(ADMIN, `/v1/admin/reports/rescues?${RANGE}&partnerId=${a.pid}&merchantId=${b.mid}`);
    expect(none.body.totals.evaluated).toBe(0);
    expect(none.body.groups).toEqual([]);

    const rows = await csv(stack, ADMIN, `/v1/admin/reports/rescues?${RANGE}&partnerId=${b.pid}&format=csv`);
    expect(rows.lines.slice(1)).toEqual([
      'group,2026-03-01,USD,2,0,1,1,1,0,10000,1,2,3600',
      'total,,USD,2,0,1,1,1,0,10000,1,2,3600',
    ]);
  });

  it('reports the orders the service itself decided, over the last 30 days by default', async () => {
    const c = await seedMerchant(stack.db);
    const token = await accessToken(stack.baseUrl, await seedKey(stack.db, c));
    const evaluate = async (cardNumber: string, extra: Record<string, unknown> = {}) => {
      const res = await callApi(stack.baseUrl, token, 'POST', '/v1/evaluate', {
        idempotencyKey: randomUUID(),
        externalOrderId: `shop-${randomUUID()}`,
        transaction: { amount: 2500, currency: 'USD', responseCode: '51' },
        paymentMethod: { cardNumber, expiryMonth: 12, expiryYear: nextYear },
        ...extra,
      });
      expect(res.status).toBe(200);
      return res.body.orderId as string;
    };
    await evaluate(APPROVES);
    await evaluate(HARD_DECLINE);
    const open = await evaluate(NEVER_FUNDED, { isMIT: true, isRecurring: true, subscription: { intervalCount: 1 } });
    const createdAt = Date.parse((await callApi(stack.baseUrl, token, 'GET', `/v1/orders/${open}`)).body.createdAtUtc);

    // The async MIT order is in the read model once its evaluate answered; polled all the same.
    const res = await eventually(
      () => api(token, '/v1/reports/rescues'),
      (r) => r.body.openRescues?.count === 1,
      { describe: 'the open rescue in the report' },
    );
    expect(Date.parse(res.body.to) - Date.parse(res.body.from)).toBe(30 * 86_400_000);
    expect(figures(res.body.totals)).toMatchObject({
      evaluated: 3,
      approved: 1,
      declined: 1,
      submitted: 1,
      rescued: 0,
    });
    const [item] = res.body.openRescues.items;
    expect(item).toMatchObject({ orderId: open, amount: 2500, currency: 'USD' });
    // The first retry a minute after acceptance, or the next slot (an hour) once that one ran.
    expect([createdAt + 60_000, createdAt + 3_600_000]).toContain(Date.parse(item.nextAttemptAt));
  });

  it('keeps a merchant’s decline code from running as a spreadsheet formula', async () => {
    const c = await seedMerchant(stack.db);
    const token = await accessToken(stack.baseUrl, await seedKey(stack.db, c));
    await record(stack, {
      mid: c.mid,
      pid: c.pid,
      flow: 'CIT',
      currency: 'USD',
      amount: 100,
      status: 'Declined',
      outcome: 'DECLINED',
      code: '=1+2',
      createdAt: at(1, '05:00:00'),
    });
    const rows = await csv(stack, token, `/v1/reports/rescues?${RANGE}&groupBy=declineCode&format=csv`);
    expect(rows.lines[1]).toBe("group,'=1+2,USD,1,0,1,0,0,0,0,,,");
  });

  it('turns bad input away with 400 400002 naming the parameter, and wrong callers with their codes', async () => {
    for (const [query, field] of [
      ['from=yesterday', 'from'],
      ['to=2026-13-01T00:00:00Z', 'to'],
      ['from=2026-03-02T00:00:00Z&to=2026-03-01T00:00:00Z', 'to'],
      ['from=2025-01-01T00:00:00Z&to=2026-03-01T00:00:00Z', 'to'],
      ['groupBy=week', 'groupBy'],
      ['format=xml', 'format'],
    ]) {
      const res = await api(tokenA, `/v1/reports/rescues?${query}`);
      expect([query, res.status, res.body.error.id, res.body.error.field]).toEqual([query, 400, '400002', field]);
    }
    const bad = await api(ADMIN, '/v1/admin/reports/rescues?partnerId=not-a-uuid');
    expect([bad.status, bad.body.error.id, bad.body.error.field]).toEqual([400, '400002', 'partnerId']);
    // Instants the format allows and Postgres has no date for: year 0000, and past 9999 by an offset.
    for (const [query, field] of [
      ['from=0000-03-01T00:00:00Z&to=0000-04-01T00:00:00Z', 'from'],
      ['from=9999-12-01T00:00:00Z&to=9999-12-31T23:00:00-23:59', 'to'],
    ]) {
      const res = await api(ADMIN, `/v1/admin/reports/rescues?${query}`);
      expect([query, res.status, res.body.error?.id, res.body.error?.field]).toEqual([query, 400, '400002', field]);
    }
    // A partner key makes no payment call: 403 merchant_forbidden.
    expect((await api(partnerToken, '/v1/reports/rescues')).body.error.id).toBe('403001');
    expect((await api(undefined, '/v1/reports/rescues')).status).toBe(401);
    // The back office needs the admin credential; a merchant's token is none.
    const asMerchant = await api(tokenA, '/v1/admin/reports/rescues');
    expect([asMerchant.status, asMerchant.body.error.id]).toEqual([401, '401010']);
  });

  it('gives the operator, from its rollup, the figures a scan of the merchant’s orders gives, as they change', async () => {
    // Whole days (the rollup alone), a partial first day, a partial last day (the rollup and a scan).
    const ranges = [
      RANGE,
      'from=2026-03-01T09:30:00Z&to=2026-03-03T00:00:00Z',
      'from=2026-02-28T12:00:00Z&to=2026-03-02T06:30:00Z',
    ];
    const agree = async () => {
      for (const range of ranges) {
        for (const groupBy of ['day', 'declineCode', 'flow', 'currency']) {
          const query = `${range}&groupBy=${groupBy}`;
          const merchant = await api(tokenA, `/v1/reports/rescues?${query}`);
          const operator = await api(ADMIN, `/v1/admin/reports/rescues?${query}&partnerId=${a.pid}`);
          expect([query, operator.body.totals, operator.body.groups]).toEqual([
            query,
            merchant.body.totals,
            merchant.body.groups,
          ]);
          const merchantCsv = await csv(stack, tokenA, `/v1/reports/rescues?${query}&format=csv`);
          const operatorCsv = await csv(
            stack,
            ADMIN,
            `/v1/admin/reports/rescues?${query}&partnerId=${a.pid}&format=csv`,
          );
          expect([query, operatorCsv.lines]).toEqual([query, merchantCsv.lines]);
        }
      }
      return (await api(ADMIN, `/v1/admin/reports/rescues?${RANGE}&partnerId=${a.pid}`)).body.totals;
    };
    expect(await agree()).toMatchObject({ submitted: 6, rescued: 3 });
    const open = (await api(tokenA, `/v1/orders/${openOrderId}`)).body;
    const openOrder = {
      mid: a.mid,
      pid: a.pid,
      orderId: openOrderId,
      externalOrderId: open.externalOrderId,
      flow: 'ASYNC_MIT' as const,
      currency: 'GBP',
      amount: 9000,
      code: '51',
      createdAt: at(2, '06:00:00'),
    };
    // Its third retry soft-declines: no figure moves, so no rollup row is written (xmin kept).
    const rollupRows = () =>
      stack
        .db('rescue_report_rollup')
        .where({ partner_id: a.pid })
        .orderBy(['day', 'dimension', 'key', 'currency'])
        .select(stack.db.raw('xmin::text as xmin'), '*');
    const before = await rollupRows();
    await record(stack, { ...openOrder, version: 3, status: 'Processing', outcome: 'SUBMITTED', attempts: 3 });
    expect(await rollupRows()).toEqual(before);
    // Rescued on its fourth: the rollup follows the order's new row.
    await record(stack, {
      ...openOrder,
      version: 4,
      status: 'Completed',
      outcome: 'APPROVED',
      attempts: 4,
      authorized: true,
      completedAt: at(2, '12:00:05'),
    });
    const after = await agree();
    expect(after).toMatchObject({ submitted: 6, rescued: 4, attemptsPerRescue: 12 / 4 });
    expect(after.recovered).toEqual([
      { currency: 'EUR', amount: 4000 },
      { currency: 'GBP', amount: 9000 },
      { currency: 'USD', amount: 9000 },
    ]);
  });
});
