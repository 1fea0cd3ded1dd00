import { randomUUID } from 'node:crypto';
import { returnedRow } from '../../src/db/returned-row';
import { sweep } from '../../src/housekeeping';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { seedKey, seedMerchant } from '../helpers/fixtures';

const HOUR = 3_600_000;

describe('housekeeping (real Postgres)', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('removes expired idempotency records, tokens expired for a day and signals past 30 days, and nothing else', async () => {
    const { db } = database;
    const now = new Date();
    const merchant = await seedMerchant(db);
    const key = await seedKey(db, merchant);
    const idem = (expiresAt: Date) => ({
      merchant_id: merchant.mid,
      key: randomUUID(),
      operation: 'evaluate',
      request_hash: 'h',
      state: 'completed' as const,
      created_at: new Date(expiresAt.getTime() - 24 * HOUR),
      expires_at: expiresAt,
    });
    await db('idempotency_keys').insert([idem(new Date(now.getTime() - HOUR)), idem(new Date(now.getTime() + HOUR))]);
    const token = (expiresAt: Date) => ({ token_hash: randomUUID(), api_key_id: key.clientId, expires_at: expiresAt });
    await db('access_tokens').insert([
      token(new Date(now.getTime() - 25 * HOUR)),
      token(new Date(now.getTime() - HOUR)),
    ]);

    const site = returnedRow(
      await db('sites').insert({ merchant_id: merchant.mid, name: 's', allowed_origins: [] }).returning('id'),
      'sites',
    );
    const senseKey = randomUUID();
    await db('sense_sessions').insert({
      merchant_id: merchant.mid,
      sense_key: senseKey,
      site_id: site.id,
      first_seen_at: now,
      last_seen_at: now,
    });
    const signal = (receivedAt: Date) => ({
      merchant_id: merchant.mid,
      sense_key: senseKey,
      site_id: site.id,
      kind: 'interactions',
      data: '{}',
      received_at: receivedAt,
    });
    await db('sense_signals').insert([
      signal(new Date(now.getTime() - 31 * 24 * HOUR)),
      signal(new Date(now.getTime() - HOUR)),
    ]);

    const removed = await sweep(db, now);
    expect(removed).toEqual({ idempotency_keys: 1, access_tokens: 1, sense_signals: 1 });
    expect(await db('sense_signals').where({ sense_key: senseKey })).toHaveLength(1);
    expect(await db('idempotency_keys').where({ merchant_id: merchant.mid })).toHaveLength(1);
    expect(await db('access_tokens').where({ api_key_id: key.clientId })).toHaveLength(1);
    expect(await sweep(db, now)).toEqual({ idempotency_keys: 0, access_tokens: 0, sense_signals: 0 });
  });
});
