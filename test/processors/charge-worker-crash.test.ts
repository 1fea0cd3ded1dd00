import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import { listOrderEvents } from '../../src/db/repositories/events';
import { orderWorkflowId } from '../../src/domain/orders/workflow-ids';
import { type ApiAnswer, callApi } from '../helpers/api-client';
import { eventually } from '../helpers/eventually';
import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { chargeKey as ledgerKey, orderRow } from '../helpers/order-row';
import { shared } from '../helpers/shared-env';
import { startTestStack, type TestStack } from '../helpers/stack';
import { killWorker, startWorkerProcess } from '../helpers/worker-process';
import { type CardNetwork, type Hold, startCardNetwork } from './harness/card-network';
import { BEHAVIOURS, CARDS, TEST_VAULT_KEYS } from './harness/cards';
import { type StripeMock, startStripeMock } from './harness/stripe-mock';

const nextYear = new Date().getUTCFullYear() + 1;

/** Answers that mean "not decided yet, retry with the same key" (docs/errors.md). */
const retryLater = (a: ApiAnswer) =>
  (a.status === 503 && a.body?.error?.id === '503010') ||
  (a.status === 500 && a.body?.error?.id === '500010') ||
  (a.status === 409 && a.body?.error?.id === '409009');

/**
 * Money safety of the charge a CIT caller waits on (docs/architecture.md, "Money invariants"):
 * the worker is SIGKILLed after Stripe charged but before its answer came back, so the workflow
 * never learnt of the charge. The merchant retries the evaluate with the same idempotencyKey; the
 * charge runs again with the same processor key (its charges-ledger row's id, written before the
 * call; the attempt advances only once the processor answered) and Stripe, which replays its stored answer for a repeated key
 * (https://docs.stripe.com/api/idempotent_requests), charges once. Real API, worker process,
 * Temporal dev server and Postgres; Stripe is stripe-mock behind the card-network simulator.
 */
describe('the worker dies while Stripe holds the answer to a CIT charge', () => {
  jest.setTimeout(180_000);
  let stripeMock: StripeMock;
  let network: CardNetwork;
  let stack: TestStack;
  let token: string;
  let merchantId: string;
  let hold: Hold | undefined;
  const workers: ChildProcess[] = [];
  const output: string[] = [];
  const processorEnv = {
    FC_ENVIRONMENT: 'production',
    CARD_VAULT_KEYS: TEST_VAULT_KEYS,
    STRIPE_SECRET_KEY: 'sk_test_processors',
  };

  beforeAll(async () => {
    stripeMock = await startStripeMock();
    network = await startCardNetwork(stripeMock.url, BEHAVIOURS);
    stack = await startTestStack({
      inProcessWorker: false,
      env: { ...processorEnv, STRIPE_API_BASE: network.url },
    });
    const merchant = await seedMerchant(stack.db);
    merchantId = merchant.mid;
    token = await accessToken(stack.baseUrl, await seedKey(stack.db, merchant));
    const settings = await api('PUT', `/v1/merchants/${merchant.mid}/settings`, { processor: 'stripe' });
    expect(settings.body).toMatchObject({ processor: 'stripe' });
  });
  afterAll(async () => {
    hold?.release();
    for (const worker of workers) if (worker.exitCode === null && worker.signalCode === null) await killWorker(worker);
    await stack?.stop();
    await network?.stop();
    await stripeMock?.stop();
    await appendFile(path.join(shared('logDir'), `charge-worker-crash-${process.pid}.log`), output.join(''));
  });

  const api = (method: string, url: string, body?: unknown) => callApi(stack.baseUrl, token, method, url, body);
  const startWorker = async () => {
    const worker = await startWorkerProcess(stack, output, stack.databaseUrl, {
      ...processorEnv,
      STRIPE_API_BASE: network.url,
    });
    workers.push(worker);
    return worker;
  };

  it('the retried evaluate (same key) charges with the same processor key: one PaymentIntent, APPROVED', async () => {
    const worker = await startWorker();
    hold = network.hold((r) => r.method === 'POST' && r.path === '/v1/payment_intents');
    const body = {
      idempotencyKey: randomUUID(),
      externalOrderId: `shop-${randomUUID()}`,
      transaction: { amount: 2500, currency: 'USD', responseCode: '51' },
      paymentMethod: { cardNumber: CARDS.approves, expiryMonth: 12, expiryYear: nextYear },
    };
    let firstAnswer: ApiAnswer | undefined;
    const first = api('POST', '/v1/evaluate', body).then((a) => {
      firstAnswer = a;
      return a;
    });

    // Stripe has created and confirmed the PaymentIntent; its answer waits at the gate.
    const held = await eventually(
      () => hold?.arrived,
      (r) => r !== undefined,
      {
        describe: () => `the PaymentIntent request to reach the simulator (evaluate answered: ${firstAnswer?.text})`,
        timeoutMs: 60_000,
        intervalMs: 20,
      },
    );
    expect(held).toMatchObject({ status: 200, replayed: false });
    expect(held?.idempotencyKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    await killWorker(worker);
    hold.release(); // the answer goes nowhere

    // No worker is alive, and the charge was under way (Stripe did charge): the caller is told
    // the outcome is not known yet (500 500010, retry with the same key), never 503 "nothing was
    // decided", which would let the merchant fall back to the decline while the money moved.
    const failed = await first;
    expect([failed.status, failed.body.error?.id]).toEqual([500, '500010']);

    await startWorker();
    const answered = await eventually(
      async () => {
        const a = await api('POST', '/v1/evaluate', body);
        // A stored "retry" answer would be replayed to every retry: the caller could never be answered.
        if (retryLater(a) && a.headers.get('idempotent-replayed') === 'true')
          throw new Error(`a retryable answer was stored under the evaluate's key: ${a.status} ${a.text}`);
        return a;
      },
      (a) => !retryLater(a),
      { describe: 'the retried evaluate (same idempotencyKey) to be answered', timeoutMs: 90_000, intervalMs: 250 },
    );
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ outcome: 'APPROVED', orderStatus: 7, orderStatusName: 'Completed' });
    const { orderId } = answered.body;
    // The key is the ledger row's id: the intent was durable before the held call, and is answered now.
    const chargeKey = await ledgerKey(stack.db, orderId, 'sale', 1);
    expect(chargeKey).toBe(held?.idempotencyKey);
    expect(await stack.db('charges').where({ order_id: orderId }).select('kind', 'attempt', 'state', 'result')).toEqual(
      [{ kind: 'sale', attempt: 1, state: 'answered', result: 'approved' }],
    );

    // Every PaymentIntent request (only this order's reach this simulator) carried the one key:
    // the held one, and the charge re-run after the crash, which Stripe answered from its first answer.
    const intents = network.requests.filter((r) => r.path === '/v1/payment_intents');
    expect(intents.length).toBeGreaterThanOrEqual(2);
    expect(intents[0]).toBe(held);
    for (const r of intents) expect(r).toMatchObject({ method: 'POST', idempotencyKey: chargeKey, status: 200 });
    expect(intents.filter((r) => !r.replayed)).toEqual([held]);
    expect(network.charges(CARDS.approves)).toBe(1);
    for (const r of network.requests.filter((q) => q.path === '/v1/payment_methods'))
      expect(r.idempotencyKey).toBe(`${chargeKey}:payment-method`);

    // One order, Completed once: one order.completed in the outbox; the read model agrees.
    expect(await orderRow(stack.db, orderId)).toMatchObject({
      status: 7,
      status_name: 'Completed',
      service_attempts: 1,
      captured_amount: 2500,
    });
    expect((await listOrderEvents(stack.db, orderId)).map((e) => e.name)).toEqual(['order.completed']);
    const order = await api('GET', `/v1/orders/${orderId}`);
    expect(order.body).toMatchObject({ orderId, status: 7, statusName: 'SUCCESS', outcome: 'APPROVED' });
    expect(await stack.db('orders').where({ external_order_id: body.externalOrderId })).toHaveLength(1);
  });
  /**
   * A first evaluate whose charge Stripe made while the worker died, never retried: its run is
   * closed with no order (terminated here, as its hour's end would), its ledger row sent, unanswered.
   */
  async function abandonCharge() {
    for (const w of workers) if (w.exitCode === null && w.signalCode === null) await killWorker(w); // the last test's
    const worker = await startWorker();
    hold = network.hold((r) => r.method === 'POST' && r.path === '/v1/payment_intents');
    const body = {
      idempotencyKey: randomUUID(),
      externalOrderId: `abandoned-${randomUUID()}`,
      transaction: { amount: 2500, currency: 'USD', responseCode: '51' },
      paymentMethod: { cardNumber: CARDS.approves, expiryMonth: 12, expiryYear: nextYear },
    };
    const first = api('POST', '/v1/evaluate', body);
    const held = await eventually(
      () => hold?.arrived,
      (r) => r !== undefined,
      { describe: 'the PaymentIntent request to reach the simulator', timeoutMs: 60_000, intervalMs: 20 },
    );
    await killWorker(worker);
    hold.release(); // Stripe charged; the answer goes nowhere
    const failed = await first;
    expect([failed.status, failed.body.error?.id]).toEqual([500, '500010']);

    // Nobody retries: the run closes with no order (terminated here, as its hour's end would).
    // Its charge's intent was durable before the call: the ledger holds it, sent, unanswered.
    const handle = stack.client.workflow.getHandle(orderWorkflowId(merchantId, body.externalOrderId));
    await handle.terminate('closed unevaluated: the first evaluate was never retried');
    const [abandoned] = await stack.db('charges').where({ external_order_id: body.externalOrderId });
    expect(abandoned).toMatchObject({ id: held?.idempotencyKey, kind: 'sale', attempt: 1, state: 'sent' });
    await startWorker();
    return { body, held, abandoned };
  }

  it('a run closed after sending a charge nobody retried is reconciled from its ledger before the id starts afresh', async () => {
    const chargesBefore = network.charges(CARDS.approves);
    const { body, held, abandoned } = await abandonCharge();
    const requestsBefore = network.requests.length;

    // Another evaluate of the id: the closed run's charge is sent again under its key (Stripe
    // replays its approval), refunded in full, and only then does the id start afresh.
    const again = await api('POST', '/v1/evaluate', { ...body, idempotencyKey: randomUUID() });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ outcome: 'APPROVED', orderStatusName: 'Completed' });
    expect(again.body.orderId).not.toBe(abandoned?.order_id);
    const rows = await stack.db('charges').where({ order_id: abandoned?.order_id }).orderBy('kind');
    expect(rows.map((r) => [r.kind, r.attempt, r.state, r.result])).toEqual([
      ['reversal', 1, 'answered', 'done'],
      ['sale', 1, 'reversed', 'approved'],
    ]);
    const reversal = rows.find((r) => r.kind === 'reversal');
    const after = network.requests.slice(requestsBefore);
    const newKey = await ledgerKey(stack.db, again.body.orderId, 'sale', 1);
    expect(after.filter((r) => r.path === '/v1/payment_intents').map((r) => [r.idempotencyKey, r.replayed])).toEqual([
      [held?.idempotencyKey, true],
      [newKey, false],
    ]);
    expect(after.filter((r) => r.path === '/v1/refunds').map((r) => [r.idempotencyKey, r.status])).toEqual([
      [reversal?.id, 200],
    ]);
    // The card was charged twice (the abandoned charge and the new order's), the first refunded.
    expect(network.charges(CARDS.approves)).toBe(chargesBefore + 2);
    expect(await stack.db('orders').where({ external_order_id: body.externalOrderId })).toHaveLength(1);

    // The id is the new order's now: another evaluate is answered from it, nothing sent.
    const sentBefore = network.requests.length;
    const third = await api('POST', '/v1/evaluate', { ...body, idempotencyKey: randomUUID() });
    expect(third.body).toMatchObject({ orderId: again.body.orderId, outcome: 'APPROVED' });
    expect(network.requests.slice(sentBefore)).toEqual([]);
  });

  it("a closed run's charge older than its key's trust is never sent again: the id stays closed, for an operator", async () => {
    const { body, abandoned } = await abandonCharge();
    // 21 hours later: Stripe may have forgotten the key (it keeps one 24 hours), and would charge afresh.
    await stack
      .db('charges')
      .where({ id: abandoned?.id })
      .update({ created_at: stack.db.raw("now() - interval '21 hours'") });
    const requestsBefore = network.requests.length;
    const again = await api('POST', '/v1/evaluate', { ...body, idempotencyKey: randomUUID() });
    expect([again.status, again.body.error?.id]).toEqual([500, '500001']);
    expect(network.requests.slice(requestsBefore)).toEqual([]); // nothing sent, under any key
    expect(await stack.db('charges').where({ external_order_id: body.externalOrderId })).toHaveLength(1);
    expect(await stack.db('orders').where({ external_order_id: body.externalOrderId })).toHaveLength(0);
  });
});
