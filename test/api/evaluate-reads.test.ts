import { randomBytes, randomUUID } from 'node:crypto';
import { cardDeclines } from '../../src/db/repositories/card-declines';
import { findVaultedCard } from '../../src/db/repositories/card-vault';
import { recordChargeSending } from '../../src/db/repositories/charge-sending';
import { recordChargeAnswer } from '../../src/db/repositories/charges';
import { evaluateReadsQuery, readEvaluateRows } from '../../src/db/repositories/evaluate-reads';
import { getMerchantSettings, updateMerchantSettings } from '../../src/db/repositories/merchants';
import { findMerchantOrderByExternalId, persistOrder } from '../../src/db/repositories/orders';
import { findSenseSession, recordSignals } from '../../src/db/repositories/sense-sessions';
import { createSite } from '../../src/db/repositories/sites';
import { DEFAULT_MERCHANT_SETTINGS } from '../../src/domain/merchant-settings';
import { NETWORK_RULES_LOOKBACK_MS } from '../../src/domain/network-rules';
import { draftOf } from '../../src/workflows/order/evaluate';
import { Order } from '../../src/workflows/order/order';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { seedMerchant } from '../helpers/fixtures';
import { evaluateInput, vaultTestCard } from '../helpers/orders';

/**
 * The evaluate's reads in one statement (src/db/repositories/evaluate-reads.ts) answer the very
 * rows, typed the same (Dates, numbers, arrays), as the one-table reads they stand for.
 */
describe('the evaluate reads', () => {
  let database: TestDatabase;
  let merchant: { mid: string; pid: string };
  const keys = [{ id: 'k1', key: randomBytes(32) }];
  beforeAll(async () => {
    database = await createTestDatabase();
    merchant = await seedMerchant(database.db);
  });
  afterAll(async () => {
    await database?.drop();
  });

  /** A charge of another order of the merchant's, on the card of `token`, answered `result`. */
  async function charge(
    token: string,
    at: Date,
    result: 'approved' | 'declined',
    networkCode: string,
    mac: string | null,
  ) {
    const id = randomUUID();
    const request = { cardToken: token, mode: 'sale' as const, flow: 'ASYNC_MIT' as const, threeDSecure: null };
    const intent = { id, orderId: randomUUID(), merchantId: merchant.mid, externalOrderId: `other-${id}` };
    await recordChargeSending(
      database.db,
      { ...intent, kind: 'sale', attempt: 1, amount: 100, currency: 'USD', request, attemptedAt: at },
      at,
    );
    await recordChargeAnswer(database.db, id, { result, networkCode, merchantAdviceCode: mac }, at);
  }

  it('answer what merchantSettingsOf, findMerchantOrderByExternalId, findVaultedCard, cardDeclines and findSenseSession answer', async () => {
    const { db } = database;
    await updateMerchantSettings(db, merchant.mid, { authorizeCapability: true, captureWindowMinutes: 90 }, new Date());
    const card = await vaultTestCard(db, merchant.mid, '4111111111111111', keys);
    const at = new Date('2026-11-29T10:11:12.345Z');
    const externalOrderId = `shop-${randomUUID()}`;
    const start = {
      orderId: randomUUID(),
      orderSessionKey: randomUUID(),
      merchantId: merchant.mid,
      partnerId: merchant.pid,
      externalOrderId,
      isTestMode: true,
    };
    const state = {
      ...draftOf(new Order(start), evaluateInput(card, at), at),
      status: 'Declined' as const,
      version: 1,
      score: 12.5,
      reasons: ['velocity', 'bin'],
      windowEndsAtUtc: '2026-11-30T10:11:12.345Z',
    };
    await persistOrder(db, { state, transition: null, events: [] });
    const site = await createSite(db, {
      merchantId: merchant.mid,
      name: 'shop',
      allowedOrigins: ['https://shop.test'],
    });
    const senseKey = randomUUID();
    await recordSignals(db, {
      merchantId: merchant.mid,
      siteId: site.id,
      batch: { v: 1, senseKey, externalOrderId, signals: [] },
      now: at,
    });

    // The card's declines in other orders: counted within the lookback, as cardDeclines counts them.
    const now = new Date('2026-11-29T12:00:00.000Z');
    const fingerprint = (await db('card_vault').where({ token: card.token }).first())?.fingerprint as string;
    await charge(card.token, new Date('2026-11-29T09:00:00.000Z'), 'declined', '51', '02');
    await charge(card.token, new Date('2026-11-28T09:00:00.000Z'), 'declined', '05', null);
    await charge(card.token, new Date('2026-11-29T09:30:00.000Z'), 'approved', '00', null);
    await charge(card.token, new Date(now.getTime() - NETWORK_RULES_LOOKBACK_MS - 60_000), 'declined', '51', null);
    const othersToken = (await vaultTestCard(db, merchant.mid, '5555555555554444', keys)).token;
    await charge(othersToken, new Date('2026-11-29T09:00:00.000Z'), 'declined', '51', null);

    const read = await readEvaluateRows(
      evaluateReadsQuery(db, {
        merchantId: merchant.mid,
        externalOrderId,
        token: card.token,
        senseKey,
        now,
      }),
    );
    const existing = await findMerchantOrderByExternalId(db, merchant.mid, externalOrderId);
    const since = new Date(now.getTime() - NETWORK_RULES_LOOKBACK_MS);
    expect(read).toEqual({
      settings: await getMerchantSettings(db, merchant.mid),
      existing,
      tokenCard: await findVaultedCard(db, merchant.mid, card.token),
      tokenCardDeclines: await cardDeclines(db, merchant.mid, fingerprint, since),
      senseSession: await findSenseSession(db, merchant.mid, senseKey),
    });
    expect(read.tokenCardDeclines).toEqual([
      { at: Date.parse('2026-11-28T09:00:00.000Z'), networkCode: '05', merchantAdviceCode: null },
      { at: Date.parse('2026-11-29T09:00:00.000Z'), networkCode: '51', merchantAdviceCode: '02' },
    ]);
    // toEqual tells a Date from its ISO text; these pin what the evaluate relies on.
    expect(read.existing?.declined_at).toEqual(at);
    expect(read.existing?.completed_at).toBeNull();
    expect(read.existing).toMatchObject({ score: 12.5, amount: 1999, reasons: ['velocity', 'bin'], version: 1 });
    expect(read.senseSession?.last_seen_at).toEqual(at);
    expect(read.settings).toMatchObject({ authorizeCapability: true, captureWindowMinutes: 90 });
  });

  it('answer nothing for what is absent, malformed or another merchant’s, and the defaults for unsaved settings', async () => {
    const { db } = database;
    const other = await seedMerchant(db);
    const othersCard = await vaultTestCard(db, other.mid, '4111111111111111', keys);
    const read = await readEvaluateRows(
      evaluateReadsQuery(db, {
        merchantId: merchant.mid,
        externalOrderId: `shop-${randomUUID()}`,
        token: othersCard.token,
        senseKey: randomUUID(),
        now: new Date(),
      }),
    );
    expect(read).toEqual({
      settings: await getMerchantSettings(db, merchant.mid),
      existing: undefined,
      tokenCard: undefined,
      tokenCardDeclines: [],
      senseSession: undefined,
    });
    const malformed = await readEvaluateRows(
      evaluateReadsQuery(db, {
        merchantId: other.mid,
        externalOrderId: "x'); drop table orders; --",
        token: 'not-a-uuid',
        senseKey: '',
        now: new Date(),
      }),
    );
    expect(malformed).toEqual({
      settings: DEFAULT_MERCHANT_SETTINGS,
      existing: undefined,
      tokenCard: undefined,
      tokenCardDeclines: [],
      senseSession: undefined,
    });
  });
});
