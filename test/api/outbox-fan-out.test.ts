import { randomUUID } from 'node:crypto';
import type { Db } from '../../src/db/knex';
import { fanOutUndispatchedEvents } from '../../src/db/repositories/outbox-fan-out';
import { derivedUuid } from '../../src/domain/ids';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { seedMerchant } from '../helpers/fixtures';
import { completedOrderEvent } from '../helpers/outbox';

/**
 * The outbox relay's fan-out statement (src/db/repositories/outbox-fan-out.ts) on real Postgres:
 * who gets a delivery of which event, the deliveries' ids as derivedUuid makes them, and a
 * repeated fan-out creating nothing twice.
 */
describe('the outbox fan-out statement', () => {
  let database: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.db;
  });
  afterAll(async () => {
    await database?.drop();
  });

  /** An endpoint of the partner (no merchant) or of one of its merchants. */
  async function endpoint(owner: { pid: string; mid: string | null }, events: string[], enabled = true) {
    const [row] = await db('webhook_endpoints')
      .insert({
        partner_id: owner.pid,
        merchant_id: owner.mid,
        url: `https://example.test/${randomUUID()}`,
        events,
        enabled,
        secret_key_id: 'k1',
        secret_iv: Buffer.alloc(12),
        secret_ciphertext: Buffer.alloc(32),
        secret_auth_tag: Buffer.alloc(16),
      })
      .returning('id');
    return (row as { id: string }).id;
  }

  const deliveriesOf = async (eventId: string) =>
    (await db('webhook_deliveries').where({ event_id: eventId }).select('id', 'endpoint_id', 'status')).sort((a, b) =>
      a.endpoint_id.localeCompare(b.endpoint_id),
    );

  it("gives each event to its owner's enabled, subscribed endpoints, with derived ids, once", async () => {
    const merchant = await seedMerchant(db);
    const other = await seedMerchant(db, merchant.pid);
    const own = { pid: merchant.pid, mid: merchant.mid };
    const partner = { pid: merchant.pid, mid: null };
    const completedTo = await endpoint(own, ['order.completed']);
    const everythingTo = await endpoint(own, ['*']);
    await endpoint(own, ['order.completed'], false); // disabled
    await endpoint(own, ['order.refunded']); // not subscribed
    await endpoint({ pid: merchant.pid, mid: other.mid }, ['order.completed']); // another merchant's
    const partnerApplications = await endpoint(partner, ['application.approved']);
    const partnerEverything = await endpoint(partner, ['*']);

    const completed = completedOrderEvent(merchant, 'fan-out-1');
    // An application event goes to the partner's endpoints even when it names a merchant.
    const approved = { ...completedOrderEvent(merchant, 'fan-out-2'), name: 'application.approved' };
    await db('events').insert([completed, approved]);

    const first = await fanOutUndispatchedEvents(db, 500);
    expect(first.events).toBe(2);
    expect(new Set(first.endpointIds)).toEqual(
      new Set([completedTo, everythingTo, partnerApplications, partnerEverything]),
    );
    const expected = (eventId: string, endpointIds: string[]) =>
      endpointIds
        .map((endpointId) => ({ id: derivedUuid(eventId, endpointId), endpoint_id: endpointId, status: 'pending' }))
        .sort((a, b) => a.endpoint_id.localeCompare(b.endpoint_id));
    expect(await deliveriesOf(completed.id)).toEqual(expected(completed.id, [completedTo, everythingTo]));
    expect(await deliveriesOf(approved.id)).toEqual(expected(approved.id, [partnerApplications, partnerEverything]));
    const dispatched = await db('events').whereIn('id', [completed.id, approved.id]).whereNotNull('dispatched_at');
    expect(dispatched).toHaveLength(2);

    // Nothing waits now: the next poll takes nothing.
    expect(await fanOutUndispatchedEvents(db, 500)).toEqual({ events: 0, endpointIds: [] });

    // A repeated fan-out (the event undispatched again) keeps each delivery as it is and signals again.
    await db('webhook_deliveries').where({ event_id: completed.id }).update({ status: 'delivered' });
    await db('events').where({ id: completed.id }).update({ dispatched_at: null });
    const again = await fanOutUndispatchedEvents(db, 500);
    expect(again.events).toBe(1);
    expect(new Set(again.endpointIds)).toEqual(new Set([completedTo, everythingTo]));
    expect((await deliveriesOf(completed.id)).map((d) => d.status)).toEqual(['delivered', 'delivered']);
  });

  it('takes at most its batch, oldest first, and skips the events another relay holds', async () => {
    const merchant = await seedMerchant(db);
    const events = Array.from({ length: 3 }, (_, i) => completedOrderEvent(merchant, `batch-${i}`));
    for (const event of events) await db('events').insert(event); // in this order: their sequence
    const held = await db.transaction();
    try {
      // Another relay's transaction holds the oldest.
      await held('events').where({ id: events[0]?.id }).forUpdate().select('id');
      expect((await fanOutUndispatchedEvents(db, 1)).events).toBe(1);
      const taken = await db('events')
        .whereNotNull('dispatched_at')
        .whereIn(
          'id',
          events.map((e) => e.id),
        )
        .select('id');
      expect(taken.map((e) => e.id)).toEqual([events[1]?.id]);
    } finally {
      await held.rollback();
    }
    expect((await fanOutUndispatchedEvents(db, 500)).events).toBe(2);
  });
});
