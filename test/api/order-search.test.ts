import { randomUUID } from 'node:crypto';
import { orderSearchQuery } from '../../src/db/repositories/order-search';
import { callApi } from '../helpers/api-client';
import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { startTestStack, type TestStack } from '../helpers/stack';

const nextYear = new Date().getUTCFullYear() + 1;

/** Sandbox test cards (docs/sandbox.md). */
const APPROVES = '4111111111111111';
const HARD_DECLINE = '4000000000000002';
const CHALLENGE = '4000000000003220';
const NEVER_FUNDED = '4000000000009995'; // an async MIT rescue stays Processing until its window ends

interface Seeded {
  orderId: string;
  externalOrderId: string;
  status: number;
  outcome: string;
  flow: string;
  createdAtUtc: string;
}

describe('GET /v1/orders: search and list the merchant’s orders, through the real API', () => {
  let stack: TestStack;
  let tokenA: string;
  let tokenB: string;
  let partnerToken: string;
  let midA: string;
  /** Merchant A's orders in the order they were created (oldest first). */
  const seededA: Seeded[] = [];
  const seededB: Seeded[] = [];
  const sharedExternalId = `shared-${randomUUID()}`;

  const api = (token: string, path: string, method = 'GET', body?: unknown) =>
    callApi(stack.baseUrl, token, method, path, body);
  const list = async (token: string, query: Record<string, string | number> = {}) => {
    const params = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
    return api(token, `/v1/orders?${params}`);
  };
  const ids = (answer: { body: { data: Array<{ orderId: string }> } }) => answer.body.data.map((o) => o.orderId);
  const newestFirst = (orders: Seeded[]) => [...orders].reverse().map((o) => o.orderId);

  /** Evaluates one declined payment through the API and records the order as the lookup shows it. */
  async function evaluate(
    token: string,
    into: Seeded[],
    cardNumber: string,
    overrides: Record<string, unknown> = {},
  ): Promise<Seeded> {
    const externalOrderId = (overrides.externalOrderId as string | undefined) ?? `shop-${randomUUID()}`;
    const res = await api(token, '/v1/evaluate', 'POST', {
      idempotencyKey: randomUUID(),
      externalOrderId,
      transaction: { amount: 2500, currency: 'USD', responseCode: '51' },
      paymentMethod: { cardNumber, expiryMonth: 12, expiryYear: nextYear },
      ...overrides,
    });
    expect(res.status).toBe(200);
    const order = (await api(token, `/v1/orders/${res.body.orderId}`)).body;
    const seeded = {
      orderId: order.orderId,
      externalOrderId,
      status: order.status,
      outcome: order.outcome,
      flow: order.flow,
      createdAtUtc: order.createdAtUtc,
    };
    into.push(seeded);
    return seeded;
  }
  const mit = { isMIT: true, isRecurring: true, subscription: { intervalCount: 1 } };

  beforeAll(async () => {
    stack = await startTestStack();
    const a = await seedMerchant(stack.db);
    midA = a.mid;
    tokenA = await accessToken(stack.baseUrl, await seedKey(stack.db, a));
    const b = await seedMerchant(stack.db);
    tokenB = await accessToken(stack.baseUrl, await seedKey(stack.db, b));
    partnerToken = await accessToken(stack.baseUrl, await seedKey(stack.db, { pid: a.pid }));

    await evaluate(tokenA, seededA, APPROVES); // CIT, Completed (7), APPROVED
    await evaluate(tokenA, seededA, HARD_DECLINE); // CIT, Declined (8), DECLINED
    await evaluate(tokenA, seededA, CHALLENGE); // CIT, Onhold (1), CHALLENGE
    await evaluate(tokenA, seededA, NEVER_FUNDED, mit); // ASYNC_MIT, Processing (4), SUBMITTED
    await evaluate(tokenA, seededA, APPROVES, { externalOrderId: sharedExternalId });
    expect((await api(tokenA, `/v1/merchants/${midA}/settings`, 'PUT', { mitEvaluation: 'sync' })).status).toBe(200);
    await evaluate(tokenA, seededA, APPROVES, mit); // SYNC_MIT, Capturerequired (5), CAPTUREREQUIRED
    await evaluate(tokenA, seededA, HARD_DECLINE);
    // Merchant B: one order under the same externalOrderId as one of A's, one of its own.
    await evaluate(tokenB, seededB, APPROVES, { externalOrderId: sharedExternalId });
    await evaluate(tokenB, seededB, HARD_DECLINE);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('seeded the statuses, outcomes and flows the filters are checked against', () => {
    expect(seededA.map((o) => [o.status, o.outcome, o.flow])).toEqual([
      [7, 'APPROVED', 'CIT'],
      [8, 'DECLINED', 'CIT'],
      [1, 'CHALLENGE', 'CIT'],
      [4, 'SUBMITTED', 'ASYNC_MIT'],
      [7, 'APPROVED', 'CIT'],
      [5, 'CAPTUREREQUIRED', 'SYNC_MIT'],
      [8, 'DECLINED', 'CIT'],
    ]);
  });

  it('lists every order of the merchant, newest first, each as GET /v1/orders/{id} shows it', async () => {
    const res = await list(tokenA);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual(newestFirst(seededA));
    expect(res.body).toMatchObject({ hasMore: false, nextCursor: null });
    const newest = seededA[seededA.length - 1] as Seeded;
    // The card's retryBudget is the one lookup's alone (a read per card; docs/orders.md).
    const { retryBudget, ...lookedUp } = (await api(tokenA, `/v1/orders/${newest.orderId}`)).body;
    expect(retryBudget).toMatchObject({ limit: 15 });
    expect(res.body.data[0]).toEqual(lookedUp);
    expect(res.body.data[0]).not.toHaveProperty('retryBudget');
  });

  it('pages through every order with the cursor: each once, none missing, newest first', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    for (;;) {
      const res = await list(tokenA, { limit: 2, ...(cursor ? { starting_after: cursor } : {}) });
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...ids(res));
      pages += 1;
      if (!res.body.hasMore) {
        expect(res.body.nextCursor).toBeNull();
        break;
      }
      expect(res.body.nextCursor).toMatch(/^orc_/);
      cursor = res.body.nextCursor;
    }
    expect(pages).toBe(4); // 7 orders, 2 a page
    expect(seen).toEqual(newestFirst(seededA));
  });

  it('filters by status (name, lookup word or number; one or several), outcome and flow', async () => {
    const where = (keep: (o: Seeded) => boolean) => newestFirst(seededA.filter(keep));
    const cases: Array<[Record<string, string>, string[]]> = [
      [{ status: '7' }, where((o) => o.status === 7)],
      [{ status: 'Completed' }, where((o) => o.status === 7)],
      [{ status: 'success' }, where((o) => o.status === 7)],
      [{ status: 'DECLINED,Onhold' }, where((o) => o.status === 8 || o.status === 1)],
      [{ status: '4' }, where((o) => o.status === 4)],
      [{ outcome: 'CHALLENGE' }, where((o) => o.outcome === 'CHALLENGE')],
      [{ outcome: 'approved,CAPTUREREQUIRED' }, where((o) => ['APPROVED', 'CAPTUREREQUIRED'].includes(o.outcome))],
      [{ outcome: 'EXPIRED' }, []],
      [{ flow: 'ASYNC_MIT' }, where((o) => o.flow === 'ASYNC_MIT')],
      [{ flow: 'SYNC_MIT,ASYNC_MIT' }, where((o) => o.flow !== 'CIT')],
      [{ flow: 'CIT', status: 'Declined' }, where((o) => o.flow === 'CIT' && o.status === 8)],
      [{ status: 'Returned' }, []],
    ];
    for (const [query, expected] of cases) {
      const res = await list(tokenA, query);
      expect([query, res.status, ids(res)]).toEqual([query, 200, expected]);
    }
    expect(where((o) => o.status === 7)).toHaveLength(2);
    // The parameter repeated is the same as comma-separated.
    const repeated = await api(tokenA, '/v1/orders?status=8&status=1');
    expect(ids(repeated)).toEqual(where((o) => o.status === 8 || o.status === 1));
  });

  it('filters by creation time: createdFrom inclusive, createdTo exclusive', async () => {
    const from = seededA[2] as Seeded;
    const to = seededA[5] as Seeded;
    const res = await list(tokenA, { createdFrom: from.createdAtUtc, createdTo: to.createdAtUtc });
    expect(ids(res)).toEqual(newestFirst(seededA.slice(2, 5)));
    const since = await list(tokenA, { createdFrom: to.createdAtUtc, limit: 1 });
    expect(ids(since)).toEqual([seededA[6]?.orderId]);
    expect(since.body.hasMore).toBe(true);
    const next = await list(tokenA, { createdFrom: to.createdAtUtc, starting_after: since.body.nextCursor });
    expect([ids(next), next.body.hasMore]).toEqual([[to.orderId], false]);
  });

  it('finds an order by the merchant’s own externalOrderId, exactly, and only the caller’s', async () => {
    const a = seededA.find((o) => o.externalOrderId === sharedExternalId) as Seeded;
    const b = seededB.find((o) => o.externalOrderId === sharedExternalId) as Seeded;
    expect(ids(await list(tokenA, { externalOrderId: sharedExternalId }))).toEqual([a.orderId]);
    expect(ids(await list(tokenB, { externalOrderId: sharedExternalId }))).toEqual([b.orderId]);
    expect(ids(await list(tokenA, { externalOrderId: sharedExternalId.slice(0, -1) }))).toEqual([]);
    expect(ids(await list(tokenA, { externalOrderId: sharedExternalId.toUpperCase() }))).toEqual([]);
  });

  it('isolates merchants: B sees only its own orders, never one of A’s', async () => {
    const res = await list(tokenB);
    expect(ids(res)).toEqual(newestFirst(seededB));
    const aIds = new Set(seededA.map((o) => o.orderId));
    const filters: Array<Record<string, string>> = [
      {},
      { status: '7' },
      { flow: 'ASYNC_MIT' },
      { outcome: 'CHALLENGE' },
    ];
    for (const filter of filters) {
      const seen = ids(await list(tokenB, filter));
      expect(seen.filter((id) => aIds.has(id))).toEqual([]);
    }
    // A's cursor does not open A's orders to B either.
    const page = await list(tokenA, { limit: 1 });
    expect(ids(await list(tokenB, { starting_after: page.body.nextCursor })).filter((id) => aIds.has(id))).toEqual([]);
    // A partner key makes no payment calls: 403 merchant_forbidden, as for GET /v1/orders/{id}.
    const partner = await list(partnerToken);
    expect([partner.status, partner.body.error?.id]).toEqual([403, '403001']);
  });

  it('answers 400 400002 naming the field for a bad filter, and an unknown status word', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ status: 'RESCUED' }, 'status'],
      [{ status: '9' }, 'status'],
      [{ status: '7,nope' }, 'status'],
      [{ status: '' }, 'status'],
      [{ outcome: 'MAYBE' }, 'outcome'],
      [{ flow: 'MOTO' }, 'flow'],
      [{ createdFrom: 'yesterday' }, 'createdFrom'],
      [{ createdTo: '2025-13-01T00:00:00Z' }, 'createdTo'],
      [{ createdFrom: '2025-03-14T10:00:00Z', createdTo: '2025-03-14T09:00:00Z' }, 'createdTo'],
      [{ starting_after: 'evc_djE6NDI' }, 'starting_after'],
      [{ starting_after: 'orc_bm90LWEtY3Vyc29y' }, 'starting_after'],
      [{ limit: '0' }, 'limit'],
      [{ limit: '501' }, 'limit'],
      [{ externalOrderId: '' }, 'externalOrderId'],
    ];
    for (const [query, field] of cases) {
      const res = await list(tokenA, query);
      expect([query, res.status, res.body.error?.id, res.body.error?.field]).toEqual([query, 400, '400002', field]);
    }
  });

  it('reads a page through the index on (merchant_id, created_at desc, id desc), however many orders', async () => {
    // Planner evidence needs volume: 10,000 orders for a third merchant, copied from one of A's rows.
    const c = await seedMerchant(stack.db);
    const template = await stack.db('orders').where({ id: seededA[0]?.orderId }).first();
    const start = Date.now();
    const rows = Array.from({ length: 10_000 }, (_, i) => ({
      ...template,
      id: randomUUID(),
      merchant_id: c.mid,
      partner_id: c.pid,
      external_order_id: `bulk-${i}`,
      order_session_key: randomUUID(),
      workflow_id: `order:${c.mid}:bulk-${i}`,
      created_at: new Date(start - i * 60_000),
    }));
    await stack.db.batchInsert('orders', rows, 1000);
    await stack.db.raw('analyze orders');

    const planOf = async (search: Parameters<typeof orderSearchQuery>[1]) => {
      const { sql, bindings } = orderSearchQuery(stack.db, search).toSQL();
      const [row] = (await stack.db.raw(`explain (format json) ${sql}`, bindings)).rows;
      return JSON.stringify(row['QUERY PLAN']);
    };
    const firstPage = await planOf({ merchantId: c.mid, limit: 100 });
    expect(firstPage).toContain('"Index Name":"orders_merchant_newest_first"');
    expect(firstPage).not.toContain('"Node Type":"Sort"');
    const later = await planOf({
      merchantId: c.mid,
      statuses: [7],
      after: { createdAt: new Date(start - 2_500 * 60_000), id: randomUUID() },
      limit: 100,
    });
    expect(later).toContain('"Index Name":"orders_merchant_newest_first"');
    expect(later).not.toContain('"Node Type":"Sort"');
    expect(later).not.toContain('Seq Scan');
    const byExternalId = await planOf({ merchantId: c.mid, externalOrderId: 'bulk-4242', limit: 100 });
    expect(byExternalId).toContain('"Index Name":"orders_merchant_id_external_order_id_unique"');

    // And through the API: C's oldest 500 of 10,000, by createdTo.
    const tokenC = await accessToken(stack.baseUrl, await seedKey(stack.db, c));
    const page = await list(tokenC, { limit: 500, createdTo: new Date(start - 9_500 * 60_000 + 1).toISOString() });
    expect([page.body.data.length, page.body.hasMore]).toEqual([500, false]);
    expect(page.body.data[0].externalOrderId).toBe('bulk-9500');
  });
});
