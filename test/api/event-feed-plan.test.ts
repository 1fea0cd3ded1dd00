import { randomUUID } from 'node:crypto';
import { ownedEventsPageQuery } from '../../src/db/repositories/event-feed';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { seedMerchant } from '../helpers/fixtures';

/**
 * A partner's event feed (GET /v1/events with a partner key; `listen` polls it every second) reads
 * its application events through their own index, however many order events the table holds.
 */
describe("the event feed's plans", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('pages a partner through events_partner_application, a merchant through (merchant_id, sequence)', async () => {
    const { db } = database;
    const { pid, mid } = await seedMerchant(db);
    // Planner evidence needs volume: 20,000 order events beside 20 application events.
    const event = (name: string, merchantId: string | null, i: number) => ({
      id: randomUUID(),
      name,
      merchant_id: merchantId,
      partner_id: pid,
      order_id: merchantId ? randomUUID() : null,
      is_test_mode: true,
      occurred_at: new Date(Date.now() - i * 1000),
      dispatched_at: new Date(),
    });
    await db.batchInsert(
      'events',
      Array.from({ length: 20_000 }, (_, i) => event('order.completed', mid, i)),
      1000,
    );
    await db.batchInsert(
      'events',
      Array.from({ length: 20 }, (_, i) => event('application.approved', null, i)),
      20,
    );
    await db.raw('analyze events');

    const planOf = async (owner: { partnerId: string; merchantId: string | null }, after: string[] = []) => {
      const { sql, bindings } = ownedEventsPageQuery(db, owner, { after, limit: 100, withTestEvents: false }).toSQL();
      const [row] = (await db.raw(`explain (format json) ${sql}`, bindings)).rows;
      return JSON.stringify(row['QUERY PLAN']);
    };
    for (const after of [[], ['5']]) {
      const partner = await planOf({ partnerId: pid, merchantId: null }, after);
      expect(partner).toContain('"Index Name":"events_partner_application"');
      expect(partner).not.toContain('"Node Type":"Seq Scan"');
    }
    const merchant = await planOf({ partnerId: pid, merchantId: mid });
    expect(merchant).not.toContain('"Node Type":"Seq Scan"');
    expect(merchant).not.toContain('"Node Type":"Sort"');
  });
});
