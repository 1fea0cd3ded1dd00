import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { loadConfig } from '../../src/config';
import { listOrderEvents } from '../../src/db/repositories/events';
import type { EvaluateInput } from '../../src/domain/orders/contracts';
import { SANDBOX_NETWORK_CARDS } from '../../src/domain/sandbox-cards';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { seedMerchant } from '../helpers/fixtures';
import { evaluateInput, orderRow, startOrder, vaultTestCard } from '../helpers/orders';
import { createTimeSkippingEnv, startTimeSkippingWorker, uniqueTaskQueue } from '../helpers/temporal';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const INSUFFICIENT_FUNDS_VISA = '4000000000009995';

/**
 * The card networks' retry limits across orders (docs/network-rules.md), on the time-skipping
 * server with the real activities, the sandbox simulator and Postgres: every test has a merchant
 * of its own, since the budget is per card and merchant.
 */
describe('card network retry limits across orders (time-skipping server, real activities and Postgres)', () => {
  let env: TestWorkflowEnvironment;
  let database: TestDatabase;
  let worker: Awaited<ReturnType<typeof startTimeSkippingWorker>>;
  const taskQueue = uniqueTaskQueue('network-rules');
  const config = loadConfig({});

  beforeAll(async () => {
    [env, database] = await Promise.all([createTimeSkippingEnv(), createTestDatabase()]);
    worker = await startTimeSkippingWorker(env, { taskQueue, config, db: database.db });
  });
  afterAll(async () => {
    await worker?.stop();
    await env?.teardown();
    await database?.drop();
  });

  const now = async () => new Date(await env.currentTimeMs());
  const asyncMit = { flow: 'ASYNC_MIT', isMIT: true, isRecurring: true, intervalCount: 1 } as const;

  /** A merchant of its own with `pan` vaulted, and a way to start its orders of that card. */
  async function merchantWithCard(pan: string) {
    const owner = await seedMerchant(database.db);
    const card = await vaultTestCard(database.db, owner.mid, pan, config.vaultKeys);
    const start = async (overrides: Partial<Omit<EvaluateInput, 'settings'>> = asyncMit) =>
      startOrder(env.client, taskQueue, owner, evaluateInput(card, await now(), overrides));
    const within21Days = async () => ({
      ...asyncMit,
      expiryDateUtc: new Date((await now()).getTime() + 21 * DAY).toISOString(),
    });
    /** The card's charges at this merchant, every order's, oldest first. */
    const charges = () =>
      database
        .db('charges')
        .where({ merchant_id: owner.mid })
        .whereIn('kind', ['sale', 'authorization'])
        .orderBy('attempted_at');
    return { owner, card, start, within21Days, charges };
  }

  const expiredData = async (orderId: string) =>
    (await listOrderEvents(database.db, orderId)).filter((e) => e.name === 'order.expired').map((e) => e.data);

  it("three orders of one Visa card over 30 days make at most Visa's 15 re-attempts in total", async () => {
    const { start, within21Days, charges } = await merchantWithCard(INSUFFICIENT_FUNDS_VISA);
    const orders = [];
    for (const gap of [0, 2 * HOUR, DAY]) {
      await env.sleep(gap);
      orders.push(await start(await within21Days()));
    }
    for (const o of orders) expect(o.result).toMatchObject({ outcome: 'SUBMITTED' });
    await env.sleep(10 * DAY);
    // The budget is spent: a CIT of the card is declined at once, with no processor call.
    const cit = await start({ flow: 'CIT' });
    expect(cit.result).toMatchObject({ outcome: 'DECLINED', status: 'Declined' });
    expect((await orderRow(database.db, cit.orderId)).reasons).toContain('retry_budget_exhausted');
    await env.sleep(20 * DAY - DAY - 2 * HOUR);

    const made = await charges();
    // One fingerprint for the card, whichever order; every attempt declined, and 15 in all.
    expect(new Set(made.map((c) => c.card_fingerprint)).size).toBe(1);
    expect(made.map((c) => c.result)).toEqual(Array(15).fill('declined'));
    expect(new Set(made.map((c) => c.order_id)).size).toBe(3);
    const span = Number(made.at(-1)?.attempted_at) - Number(made[0]?.attempted_at);
    expect(span).toBeLessThan(30 * DAY);
    // Each order ended, before its window, by the budget: order.expired says so.
    for (const { orderId } of orders) {
      const row = await orderRow(database.db, orderId);
      expect(row).toMatchObject({ status: 2, status_name: 'Cancelled' });
      expect(Number(row.expired_at)).toBeLessThan(Number(row.window_ends_at));
      expect(await expiredData(orderId)).toEqual([
        { EndedBy: 'retry_budget', Rule: 'visa_15_in_30_days', RetryAllowedAt: expect.any(String) },
      ]);
    }
  });

  it("a Visa category 1 decline stops the card's later attempts in every order of the merchant", async () => {
    const { start, within21Days, charges } = await merchantWithCard(SANDBOX_NETWORK_CARDS.closes_after_first.pan);
    const first = await start(await within21Days()); // +1 min: 05; +1 h: 46, category 1
    await env.sleep(10 * MINUTE);
    const second = await start(await within21Days()); // +1 min: 05 (its attempt 1); +1 h: stopped
    await env.sleep(2 * HOUR);
    expect(await orderRow(database.db, first.orderId)).toMatchObject({ status: 2, service_attempts: 2 });
    expect(await orderRow(database.db, second.orderId)).toMatchObject({ status: 2, service_attempts: 1 });
    expect(await expiredData(first.orderId)).toEqual([null]); // the hard decline itself, as before
    expect(await expiredData(second.orderId)).toEqual([
      { EndedBy: 'retry_budget', Rule: 'visa_category_1', RetryAllowedAt: expect.any(String) },
    ]);
    const cit = await start({ flow: 'CIT' });
    expect(cit.result).toMatchObject({ outcome: 'DECLINED' });
    expect((await orderRow(database.db, cit.orderId)).reasons).toContain('retry_budget_exhausted');
    expect((await charges()).map((c) => c.network_code)).toEqual(['05', '05', '46']);
  });

  it.each([
    ['03', SANDBOX_NETWORK_CARDS.mac_03.pan],
    ['21', SANDBOX_NETWORK_CARDS.mac_21.pan],
  ])('Mastercard advice code %s stops every later attempt on the card for 30 days', async (mac, pan) => {
    const { start, within21Days, charges } = await merchantWithCard(pan);
    const first = await start(await within21Days());
    await env.sleep(2 * MINUTE);
    expect(await orderRow(database.db, first.orderId)).toMatchObject({ status: 2, service_attempts: 1 });
    expect(await charges()).toMatchObject([{ merchant_advice_code: mac, advice: 'do_not_retry' }]);

    // No order of the card may charge it for 30 days: an async MIT whose window ends before then,
    // and a CIT 20 days later, are declined with no processor call.
    const declined = [await start(await within21Days())];
    await env.sleep(20 * DAY);
    declined.push(await start({ flow: 'CIT' }));
    for (const again of declined) {
      expect(again.result).toMatchObject({ outcome: 'DECLINED', status: 'Declined' });
      expect((await orderRow(database.db, again.orderId)).reasons).toContain('retry_budget_exhausted');
    }
    expect(await charges()).toHaveLength(1);
    // After 30 days the card may be tried again.
    await env.sleep(10 * DAY);
    expect((await start({ flow: 'CIT' })).result).toMatchObject({ outcome: 'DECLINED' });
    expect(await charges()).toHaveLength(2);
  });

  it.each([
    ['24', SANDBOX_NETWORK_CARDS.mac_24.pan, HOUR],
    ['26', SANDBOX_NETWORK_CARDS.mac_26.pan, 2 * DAY],
  ])('Mastercard advice code %s moves the next attempt to the time it names', async (_mac, pan, wait) => {
    const { start, within21Days, charges } = await merchantWithCard(pan);
    const { orderId } = await start(await within21Days());
    await env.sleep(wait + 10 * MINUTE);
    const [first, second, third] = await charges();
    // At the time it names (the workflow's clock runs on by a few milliseconds within the task).
    const gap = (a?: { attempted_at: Date | null }, b?: { attempted_at: Date | null }) =>
      Number(b?.attempted_at) - Number(a?.attempted_at);
    expect(gap(first, second)).toBeGreaterThanOrEqual(wait);
    expect(gap(first, second)).toBeLessThan(wait + SECOND);
    if (third) expect(gap(second, third)).toBeGreaterThanOrEqual(wait);
    expect(await orderRow(database.db, orderId)).toMatchObject({ status: 4 });
  });
});
