import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { loadConfig } from '../../src/config';
import { updateMerchantSettings } from '../../src/db/repositories/merchants';
import type { EvaluateInput } from '../../src/domain/orders/contracts';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { seedMerchant } from '../helpers/fixtures';
import { chargeKey } from '../helpers/order-row';
import { evaluateInput, eventNames, orderRow, startOrder, vaultTestCard } from '../helpers/orders';
import { createTimeSkippingEnv, startTimeSkippingWorker, uniqueTaskQueue } from '../helpers/temporal';
import { type CardNetwork, startCardNetwork } from './harness/card-network';
import { BEHAVIOURS, CARDS, TEST_VAULT_KEYS } from './harness/cards';
import { type StripeMock, startStripeMock } from './harness/stripe-mock';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * The async MIT rescue in production with the Stripe adapter: the order workflow on the
 * time-skipping server with the real activities and Postgres, Stripe's side played by stripe-mock
 * behind the card-network simulator (harness/card-network.ts). The schedule's retries are
 * PaymentIntents confirmed off-session; a decline whose advice forbids retrying ends the rescue.
 */
describe('async MIT rescue through Stripe (time-skipping server, stripe-mock)', () => {
  let env: TestWorkflowEnvironment;
  let database: TestDatabase;
  let stripeMock: StripeMock;
  let network: CardNetwork;
  let worker: Awaited<ReturnType<typeof startTimeSkippingWorker>>;
  let owner: { mid: string; pid: string };
  const taskQueue = uniqueTaskQueue('processors');
  let config: ReturnType<typeof loadConfig>;
  const cards: Record<string, EvaluateInput['card']> = {};

  beforeAll(async () => {
    [env, database, stripeMock] = await Promise.all([createTimeSkippingEnv(), createTestDatabase(), startStripeMock()]);
    network = await startCardNetwork(stripeMock.url, BEHAVIOURS);
    config = loadConfig({
      FC_ENVIRONMENT: 'production',
      CARD_VAULT_KEYS: TEST_VAULT_KEYS,
      STRIPE_SECRET_KEY: 'sk_test_processors',
      STRIPE_API_BASE: network.url,
    });
    owner = await seedMerchant(database.db);
    await updateMerchantSettings(database.db, owner.mid, { processor: 'stripe' }, new Date());
    for (const pan of [CARDS.softThenApproves, CARDS.doNotTryAgain]) {
      cards[pan] = await vaultTestCard(database.db, owner.mid, pan, config.vaultKeys);
    }
    worker = await startTimeSkippingWorker(env, { taskQueue, config, db: database.db });
  });
  afterAll(async () => {
    await worker?.stop();
    await env?.teardown();
    await database?.drop();
    await network?.stop();
    await stripeMock?.stop();
  });

  const asyncMit = { flow: 'ASYNC_MIT', isMIT: true, isRecurring: true, intervalCount: 1 } as const;
  const start = async (pan: string) =>
    startOrder(
      env.client,
      taskQueue,
      owner,
      evaluateInput(cards[pan] as EvaluateInput['card'], new Date(await env.currentTimeMs()), asyncMit),
    );
  /** The PaymentIntent requests sent under the order's keys (its charges-ledger rows' ids). */
  const intents = async (orderId: string) => {
    const keys = new Set(await database.db('charges').where({ order_id: orderId }).pluck('id'));
    return network.requests.filter((r) => r.path === '/v1/payment_intents' && keys.has(r.idempotencyKey ?? ''));
  };

  it('soft declines (try_again_later) are retried on the schedule; the third charge rescues: Completed', async () => {
    const { result, orderId } = await start(CARDS.softThenApproves);
    expect(result).toMatchObject({ kind: 'answer', outcome: 'SUBMITTED', status: 'Processing' });

    await env.sleep(5 * HOUR); // +1 min and +1 h: insufficient funds, try again later
    expect(await orderRow(database.db, orderId)).toMatchObject({ status: 4, service_attempts: 2, response_code: '51' });
    await env.sleep(2 * HOUR); // +6 h: approved
    expect(await orderRow(database.db, orderId)).toMatchObject({
      status: 7,
      status_name: 'Completed',
      service_attempts: 3,
      captured_amount: 1999,
    });
    expect(await eventNames(database.db, orderId)).toEqual(['order.completed']);

    const sent = await intents(orderId);
    expect(sent.map((r) => [r.idempotencyKey, r.status])).toEqual([
      [await chargeKey(database.db, orderId, 'sale', 1), 402],
      [await chargeKey(database.db, orderId, 'sale', 2), 402],
      [await chargeKey(database.db, orderId, 'sale', 3), 200],
    ]);
    for (const r of sent)
      expect(r.params).toMatchObject({ off_session: 'true', confirm: 'true', capture_method: 'automatic' });
  });

  it('a decline with advice do_not_try_again ends the rescue at once and is never retried', async () => {
    const { orderId } = await start(CARDS.doNotTryAgain);
    await env.sleep(2 * MINUTE); // the first retry, at +1 min
    expect(await orderRow(database.db, orderId)).toMatchObject({ status: 2, service_attempts: 1 });
    await env.sleep(10 * DAY); // where the schedule would have made nine more attempts
    expect((await orderRow(database.db, orderId))?.service_attempts).toBe(1);
    expect((await intents(orderId)).map((r) => r.status)).toEqual([402]);
    // The ledger keeps the processor's advice, as the Stripe adapter reported it.
    expect(
      await database.db('charges').where({ order_id: orderId }).select('kind', 'attempt', 'state', 'result', 'advice'),
    ).toEqual([{ kind: 'sale', attempt: 1, state: 'answered', result: 'declined', advice: 'do_not_retry' }]);
    expect(network.charges(CARDS.doNotTryAgain)).toBe(1);
    expect(await eventNames(database.db, orderId)).toEqual(['order.expired']);
  });
});
