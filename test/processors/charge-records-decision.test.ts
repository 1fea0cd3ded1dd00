import { randomBytes, randomUUID } from 'node:crypto';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createProcessorActivities } from '../../src/activities/processor';
import { reserveRefund } from '../../src/db/repositories/refunds';
import type { ChargeAttempt } from '../../src/domain/orders/charge-attempts';
import { KEY_RESEND_LIMIT_MS } from '../../src/domain/orders/charge-attempts';
import { CHALLENGE_TIMEOUT_MS } from '../../src/domain/orders/charge-decision';
import type { ChargeInput, ChargeResult, EvaluateInput, OrderState } from '../../src/domain/orders/contracts';
import { FAILURE } from '../../src/domain/orders/failures';
import { committedState, recordedCalls } from '../../src/domain/orders/order-commit';
import { ORDER_STATUS } from '../../src/domain/orders/status';
import { SANDBOX_CARDS_BY_BEHAVIOUR } from '../../src/domain/sandbox-cards';
import { draftOf } from '../../src/workflows/order/evaluate';
import { Order } from '../../src/workflows/order/order';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { seedMerchant } from '../helpers/fixtures';
import { evaluateInput, eventNames, orderRow, vaultTestCard } from '../helpers/orders';

/**
 * The first evaluate's charge records the order its answer decides (ChargeInput.decides;
 * src/activities/processor.ts), against real Postgres and the sandbox processor: the order, its
 * transition and events are written in the statement that records the answer, the workflow makes
 * the same state from what the activity answers, a re-run reads the recorded answer back instead
 * of deciding afresh, and a run closing undecided (`adopt`) takes up only an order already recorded.
 */
describe("the first evaluate's charge records the order it decides", () => {
  let database: TestDatabase;
  let merchant: { mid: string; pid: string };
  const keys = [{ id: 'k1', key: randomBytes(32) }];
  const env = new MockActivityEnvironment();
  let processor: ReturnType<typeof createProcessorActivities>;
  beforeAll(async () => {
    database = await createTestDatabase();
    merchant = await seedMerchant(database.db);
    processor = createProcessorActivities({ db: database.db, vaultKeys: keys, environment: 'sandbox' });
  });
  afterAll(async () => {
    await database?.drop();
  });

  /** A first evaluate's charge of `pan`, as the workflow sends it, with the draft it decides. */
  async function firstCharge(pan: string, mode: 'decide' | 'adopt', overrides: Partial<EvaluateInput> = {}) {
    const at = new Date();
    const card = await vaultTestCard(database.db, merchant.mid, pan, keys);
    const start = {
      orderId: randomUUID(),
      orderSessionKey: randomUUID(),
      merchantId: merchant.mid,
      partnerId: merchant.pid,
      externalOrderId: `shop-${randomUUID()}`,
      isTestMode: true,
      chargeRecordsDecision: true,
    };
    const evaluation = evaluateInput(card, at, { flow: 'CIT', isMIT: false, ...overrides });
    const draft = draftOf(new Order(start), evaluation, at);
    const authorize = draft.transactionType === 'AUTHORIZATION';
    const key = randomUUID();
    const sent: ChargeAttempt = {
      kind: authorize ? 'authorization' : 'sale',
      attempt: 1,
      key,
      state: 'sent',
      result: null,
      networkCode: null,
      advice: null,
      createdAtUtc: at.toISOString(),
      answeredAtUtc: null,
    };
    const input: ChargeInput = {
      idempotencyKey: key,
      orderId: start.orderId,
      externalOrderId: start.externalOrderId,
      merchantId: merchant.mid,
      cardToken: card.token,
      amount: draft.amount,
      currency: draft.currency,
      mode: authorize ? 'authorize' : 'sale',
      flow: 'CIT',
      attempt: 1,
      threeDSecure: null,
      attemptedAtUtc: at.toISOString(),
      decides: { draft, from: null, calls: [sent], captureWindowMinutes: 7, mode },
    };
    return { input, draft, sent };
  }

  /** The state the workflow adopts from the activity's answer (Order.adoptRecorded). */
  function adopted(draft: OrderState, sent: ChargeAttempt, result: ChargeResult): OrderState {
    const decided = result.decided;
    if (!decided) throw new Error('nothing decided');
    const answered = { attempt: 1, result, at: decided.atUtc };
    const calls = recordedCalls([{ ...sent, key: result.key ?? sent.key }], answered);
    return committedState(draft, decided.changes, { answered, calls, unsettled: sent }, new Date(decided.atUtc));
  }

  const charge = (input: ChargeInput): Promise<ChargeResult> => env.run(processor.processorCharge, input);
  const chargeRow = (orderId: string) => database.db('charges').where({ order_id: orderId }).first();
  const transitions = (orderId: string) =>
    database.db('order_transitions').where({ order_id: orderId }).select('from_status', 'to_status', 'version');

  it.each([
    ['approves', {}, 'Completed', ['order.completed']],
    ['approves', { transactionType: 'AUTHORIZATION' as const }, 'Capturerequired', ['order.capturerequired']],
    ['hard_decline', {}, 'Declined', []],
    ['challenge', {}, 'Onhold', ['challenge.presented']],
    ['unavailable', {}, 'Problem', []],
  ] as const)(
    'a card that %s (%j): the order (%s) is durable with the answer, as the workflow makes it',
    async (behaviour, overrides, status, events) => {
      const { input, draft, sent } = await firstCharge(SANDBOX_CARDS_BY_BEHAVIOUR[behaviour].visa, 'decide', overrides);
      const result = await charge(input);
      expect(result.decided?.changes.status).toBe(status);
      const state = adopted(draft, sent, result);
      const row = await orderRow(database.db, input.orderId);
      expect(row).toMatchObject({
        status: ORDER_STATUS[status],
        status_name: status,
        version: 1,
        service_attempts: 1,
        confirmation_id: state.confirmationId,
        capture_before: state.captureBeforeUtc ? new Date(state.captureBeforeUtc) : null,
        updated_at: new Date(state.updatedAtUtc),
      });
      expect(state).toMatchObject({ version: 1, serviceAttempts: 1, status });
      expect(state.attempts).toEqual([expect.objectContaining({ key: sent.key, state: 'answered' })]);
      expect(await transitions(input.orderId)).toEqual([{ from_status: null, to_status: status, version: 1 }]);
      expect(await eventNames(database.db, input.orderId)).toEqual(events);
      expect(await chargeRow(input.orderId)).toMatchObject({ state: 'answered', answered_at: expect.any(Date) });
      if (status === 'Capturerequired')
        expect(Date.parse(state.captureBeforeUtc ?? '')).toBe(Date.parse(state.updatedAtUtc) + 7 * 60_000);
      if (status === 'Onhold') {
        const presented = await database.db('events').where({ order_id: input.orderId }).first('data');
        expect(presented?.data).toEqual({
          ExpiresAt: new Date(Date.parse(state.updatedAtUtc) + CHALLENGE_TIMEOUT_MS).toISOString(),
        });
      }
    },
  );

  it('sent again after its answer was recorded (its caller never heard), it reads that answer back and decides the same order', async () => {
    const { input, draft, sent } = await firstCharge(SANDBOX_CARDS_BY_BEHAVIOUR.approves.visa, 'decide');
    const first = await charge(input);
    const again = await charge({ ...input, attemptedAtUtc: new Date(Date.now() + 60_000).toISOString() });
    expect(again).toEqual(first);
    expect(adopted(draft, sent, again)).toEqual(adopted(draft, sent, first));
    expect(await eventNames(database.db, input.orderId)).toEqual(['order.completed']);
    expect(await transitions(input.orderId)).toHaveLength(1);
  });

  it('a run closing undecided takes up only an order already recorded: none when the answer comes now', async () => {
    const closing = await firstCharge(SANDBOX_CARDS_BY_BEHAVIOUR.approves.visa, 'adopt');
    const answered = await charge(closing.input);
    expect(answered).toMatchObject({ result: 'approved' });
    expect(answered.decided).toBeUndefined();
    expect(await database.db('orders').where({ id: closing.input.orderId }).first()).toBeUndefined();
    expect(await chargeRow(closing.input.orderId)).toMatchObject({ state: 'answered', result: 'approved' });

    const recorded = await firstCharge(SANDBOX_CARDS_BY_BEHAVIOUR.approves.visa, 'decide');
    const decided = await charge(recorded.input);
    const taken = await charge({
      ...recorded.input,
      decides: { ...(recorded.input.decides as NonNullable<ChargeInput['decides']>), mode: 'adopt' },
    });
    expect(taken).toEqual(decided);
    expect(await eventNames(database.db, recorded.input.orderId)).toEqual(['order.completed']);
  });

  /** A partial refund of 100 reserved in the ledger of the order's, as the refund workflow first does; its id. */
  async function reservePartialRefund(orderId: string): Promise<string> {
    const refund = { refundId: randomUUID(), orderId, merchantId: merchant.mid };
    const reserved = await reserveRefund(
      database.db,
      { ...refund, kind: 'partial', amount: 100, idempotencyKey: null },
      new Date(),
    );
    expect(reserved.kind).toBe('reserved');
    return refund.refundId;
  }

  it('a run closing undecided takes up its recorded order after a refund moved the row on', async () => {
    // The merchant saw the order Completed (a lookup, order.completed) and refunded part of it
    // while the run never heard the charge's answer: the hour's end must take that order up,
    // not undo its charge.
    const recorded = await firstCharge(SANDBOX_CARDS_BY_BEHAVIOUR.approves.visa, 'decide');
    const decided = await charge(recorded.input);
    await reservePartialRefund(recorded.input.orderId);
    expect(await orderRow(database.db, recorded.input.orderId)).toMatchObject({ version: 2 });
    const taken = await charge({
      ...recorded.input,
      decides: { ...(recorded.input.decides as NonNullable<ChargeInput['decides']>), mode: 'adopt' },
    });
    expect(taken).toEqual(decided);
  });

  it('a refund first asked longer ago than the processor keeps its key is not sent again: left pending', async () => {
    const recorded = await firstCharge(SANDBOX_CARDS_BY_BEHAVIOUR.approves.visa, 'decide');
    const { authorizationId } = (await charge(recorded.input)) as { authorizationId: string };
    const reserve = async () => {
      const refundId = await reservePartialRefund(recorded.input.orderId);
      return { refundId, authorizationId, amount: 100, currency: 'USD' };
    };
    const reservedAgo = (refundId: string, ms: number) =>
      database
        .db('refunds')
        .where({ id: refundId })
        .update({ created_at: new Date(Date.now() - ms) });
    const refund = (input: Awaited<ReturnType<typeof reserve>>) => env.run(processor.processorRefund, input);

    const within = await reserve();
    await reservedAgo(within.refundId, KEY_RESEND_LIMIT_MS - 60_000);
    await expect(refund(within)).resolves.toMatchObject({ processorReference: expect.any(String) });
    const past = await reserve();
    await reservedAgo(past.refundId, KEY_RESEND_LIMIT_MS + 60_000);
    await expect(refund(past)).rejects.toMatchObject({ type: FAILURE.chargeKeyExpired, nonRetryable: true });
    expect(await database.db('refunds').where({ id: past.refundId }).first()).toMatchObject({ state: 'pending' });
  });
});
