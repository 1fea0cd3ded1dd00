import { randomBytes, randomUUID } from 'node:crypto';
import { revealedCardOf } from '../../src/db/repositories/card-vault';
import { recordChargeSending, recordChargeSendingReading } from '../../src/db/repositories/charge-sending';
import {
  type ChargeIntent,
  ChargeRequestChangedError,
  ExternalOrderTakenError,
  markChargeReversed,
  markChargeUnknown,
  recordChargeAnswer,
} from '../../src/db/repositories/charges';
import { updateMerchantSettings } from '../../src/db/repositories/merchants';
import { persistOrder } from '../../src/db/repositories/orders';
import { draftOf } from '../../src/workflows/order/evaluate';
import { Order } from '../../src/workflows/order/order';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { seedMerchant } from '../helpers/fixtures';
import { evaluateInput, vaultTestCard } from '../helpers/orders';

/**
 * The charges ledger's steps against real Postgres (src/db/repositories/charges.ts): each is
 * idempotent, a state only moves forward, and no intent is written for an orderId that is not
 * its externalOrderId's order.
 */
describe('charges ledger', () => {
  let database: TestDatabase;
  let merchantId: string;
  beforeAll(async () => {
    database = await createTestDatabase();
    merchantId = (await seedMerchant(database.db)).mid;
  });
  afterAll(async () => {
    await database?.drop();
  });

  const intent = (overrides: Partial<ChargeIntent> = {}): ChargeIntent => ({
    id: randomUUID(),
    orderId: randomUUID(),
    merchantId,
    externalOrderId: `shop-${randomUUID()}`,
    kind: 'sale',
    attempt: 1,
    amount: 1999,
    currency: 'USD',
    ...overrides,
  });
  const row = (id: string) => database.db('charges').where({ id }).first();

  it('a second intent for the same (order, kind, attempt) is the first row, under its key, sent', async () => {
    const first = intent();
    const written = await recordChargeSending(database.db, first, new Date());
    const again = await recordChargeSending(database.db, { ...first, id: randomUUID() }, new Date());
    expect(again.id).toBe(first.id);
    expect(written).toMatchObject({ id: first.id, state: 'sent', kind: 'sale', attempt: 1, amount: 1999 });
    expect(written.sent_at).toBeInstanceOf(Date);
    expect(await database.db('charges').where({ order_id: first.orderId })).toHaveLength(1);
    // Another attempt, or another kind of call for the same attempt, is another row.
    const retry = await recordChargeSending(database.db, { ...first, id: randomUUID(), attempt: 2 }, new Date());
    const voided = await recordChargeSending(database.db, { ...first, id: randomUUID(), kind: 'void' }, new Date());
    expect(new Set([first.id, retry.id, voided.id]).size).toBe(3);
  });

  it('two sends of one call at the same moment record one row, and both send its key', async () => {
    const call = intent();
    const [a, b] = await Promise.all([
      recordChargeSending(database.db, call, new Date()),
      recordChargeSending(database.db, { ...call, id: randomUUID() }, new Date()),
    ]);
    expect([a.id, b.id]).toEqual([call.id, call.id]);
    expect(await database.db('charges').where({ order_id: call.orderId })).toHaveLength(1);
  });

  it('an intent written before its send was recorded with it (an earlier release) is sent under its key', async () => {
    const call = intent();
    await recordChargeSending(database.db, call, new Date());
    await database.db('charges').where({ id: call.id }).update({ state: 'intent', sent_at: null });
    const sent = await recordChargeSending(database.db, { ...call, id: randomUUID() }, new Date());
    expect(sent).toMatchObject({ id: call.id, state: 'sent' });
  });

  it('an answer is recorded once; sending again never moves it back, and only a sent call becomes unknown', async () => {
    const call = intent();
    const { id } = await recordChargeSending(database.db, call, new Date());
    await markChargeUnknown(database.db, id);
    expect((await row(id))?.state).toBe('unknown');
    // Sent again (a re-send settling it): the same key, sent.
    expect(await recordChargeSending(database.db, { ...call, id: randomUUID() }, new Date())).toMatchObject({
      id,
      state: 'sent',
    });
    const declined = {
      result: 'declined' as const,
      networkCode: '51',
      advice: 'retryable',
      processorDeclineCode: 'insufficient_funds',
    };
    await recordChargeAnswer(database.db, id, declined, new Date());
    await recordChargeAnswer(database.db, id, { result: 'approved', processorReference: 'pi_later' }, new Date());
    // Sent again once answered: the row answers as it is, and stays so.
    expect(await recordChargeSending(database.db, call, new Date())).toMatchObject({ id, state: 'answered' });
    await markChargeUnknown(database.db, id);
    expect(await row(id)).toMatchObject({
      state: 'answered',
      result: 'declined',
      network_code: '51',
      advice: 'retryable',
      processor_decline_code: 'insufficient_funds',
      processor_reference: null,
    });
  });

  it("an attempt's row is never sent under another amount, currency or card: refused, the row as it was", async () => {
    const request = { cardToken: randomUUID(), mode: 'sale' as const, flow: 'CIT' as const, threeDSecure: null };
    const call = intent({ request });
    const { id } = await recordChargeSending(database.db, call, new Date());
    await markChargeUnknown(database.db, id);
    const before = await row(id);
    for (const changed of [
      { amount: 2999 },
      { currency: 'EUR' },
      { request: { ...request, cardToken: randomUUID() } },
    ] satisfies Partial<ChargeIntent>[]) {
      await expect(
        recordChargeSending(database.db, { ...call, ...changed, id: randomUUID() }, new Date()),
      ).rejects.toBeInstanceOf(ChargeRequestChangedError);
    }
    expect(await row(id)).toEqual(before);
    expect(await database.db('charges').where({ order_id: call.orderId })).toHaveLength(1);
    // The same request again (a re-send settling it) is sent under its key.
    expect(await recordChargeSending(database.db, { ...call, id: randomUUID() }, new Date())).toMatchObject({
      id,
      state: 'sent',
    });
  });

  it('an approval given back is reversed, once, and sending again leaves it reversed', async () => {
    const charge = intent({ kind: 'authorization' });
    const { id } = await recordChargeSending(database.db, charge, new Date());
    await recordChargeAnswer(database.db, id, { result: 'approved', processorReference: 'auth-1' }, new Date());
    await markChargeReversed(database.db, charge.orderId, 1, new Date());
    await markChargeReversed(database.db, charge.orderId, 1, new Date());
    expect(await recordChargeSending(database.db, charge, new Date())).toMatchObject({ id, state: 'reversed' });
    expect(await row(id)).toMatchObject({ state: 'reversed', result: 'approved', processor_reference: 'auth-1' });
  });

  it("refuses a new intent for an orderId that is not its externalOrderId's order, once that order exists", async () => {
    const at = new Date();
    const start = {
      orderId: randomUUID(),
      orderSessionKey: randomUUID(),
      merchantId,
      partnerId: (await database.db('merchants').where({ id: merchantId }).first('partner_id'))?.partner_id ?? '',
      externalOrderId: `shop-${randomUUID()}`,
      isTestMode: true,
    };
    const card = { token: randomUUID(), brand: 'visa', bin: '411111', last4: '1111' };
    const state = {
      ...draftOf(new Order(start), evaluateInput(card, at), at),
      status: 'Declined' as const,
      version: 1,
    };
    await persistOrder(database.db, { state, transition: null, events: [] });

    const ours = intent({ orderId: start.orderId, externalOrderId: start.externalOrderId });
    await expect(recordChargeSending(database.db, ours, at)).resolves.toMatchObject({ id: ours.id });
    const another = intent({ externalOrderId: start.externalOrderId });
    await expect(recordChargeSending(database.db, another, at)).rejects.toBeInstanceOf(ExternalOrderTakenError);
    expect(await database.db('charges').where({ order_id: another.orderId })).toEqual([]);
  });

  it('records a card charge sent and reads its card and settings in one statement, never across merchants', async () => {
    const keys = [{ id: 'k1', key: randomBytes(32) }];
    const card = await vaultTestCard(database.db, merchantId, '4111111111111111', keys);
    const other = (await seedMerchant(database.db)).mid;
    await updateMerchantSettings(database.db, merchantId, { captureWindowMinutes: 7 }, new Date());
    const statements: string[] = [];
    const count = (q: { sql: string }) => statements.push(q.sql);
    const sendReads = async (
      ask: { merchantId: string; cardToken: string },
      call = intent({ merchantId: ask.merchantId }),
    ) => {
      database.db.on('query', count);
      try {
        return await recordChargeSendingReading(database.db, call, new Date(), ask);
      } finally {
        database.db.off('query', count);
      }
    };

    const first = intent();
    const { row: sent, reads } = await sendReads({ merchantId, cardToken: card.token }, first);
    expect(statements).toHaveLength(1);
    expect(sent).toMatchObject({ id: first.id, merchant_id: merchantId, state: 'sent', amount: 1999 });
    expect(sent.created_at).toBeInstanceOf(Date);
    expect(await row(first.id)).toEqual(sent);
    expect(reads.settings.captureWindowMinutes).toBe(7);
    expect(reads.vaultRow && revealedCardOf(reads.vaultRow, keys)).toMatchObject({
      pan: '4111111111111111',
      card: { token: card.token, last4: '1111' },
    });
    // Another merchant's token, an unknown one, and one that is no UUID name no card of this merchant.
    for (const cardToken of [card.token, randomUUID(), 'tok_not_a_uuid']) {
      const ask = { merchantId: cardToken === card.token ? other : merchantId, cardToken };
      const found = await sendReads(ask);
      expect(found).toMatchObject({ row: { state: 'sent' }, reads: { vaultRow: undefined } });
    }
    // A row already answered is not marked sent again; the reads still answer.
    const { id } = await recordChargeSending(database.db, first, new Date());
    await recordChargeAnswer(database.db, id, { result: 'approved', processorReference: 'pi_1' }, new Date());
    const again = await sendReads({ merchantId, cardToken: card.token }, { ...first, id: randomUUID() });
    expect(again.row).toMatchObject({ id, state: 'answered', processor_reference: 'pi_1' });
    expect(again.reads.vaultRow?.token).toBe(card.token);
    expect((await row(id))?.state).toBe('answered');
  });
});
