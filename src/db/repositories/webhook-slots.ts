import type { Db } from '../knex';

/**
 * Attempt slots of the per-delivery workflows (webhookDeliveryWorkflow, kept for deliveries made
 * before the per-endpoint workflow; docs/webhooks.md): a delivery may attempt only while it
 * holds a slot, and at most `perEndpoint` slots of one endpoint and `perOwner` of one merchant
 * (or partner) exist at once, across every worker process. A slot is a row with an expiry (a
 * lease): a worker that dies holding one loses it after `ttlMs`. A delivery refused a slot is
 * recorded as waiting, so whoever frees one can wake it. Acquiring and releasing take the owner's
 * transaction-scoped advisory lock, so the counts hold and no release can miss a waiter that is
 * registering at the same moment.
 */
export interface SlotRequest {
  /** The delivery workflow's id (a delivery and its manual resends are separate holders). */
  holder: string;
  endpointId: string;
  /** `merchant:<mid>` or `partner:<pid>`: who shares the per-merchant limit. */
  ownerKey: string;
  perEndpoint: number;
  perOwner: number;
}

/** Advisory lock namespace of the slot tables (the second key is the owner's hash). */
const SLOT_LOCK_SPACE = 7_401;

async function lockOwner(trx: Db, ownerKey: string): Promise<void> {
  await trx.raw('select pg_advisory_xact_lock(?, hashtext(?))', [SLOT_LOCK_SPACE, ownerKey]);
  await trx('webhook_slots').where({ owner_key: ownerKey }).andWhere('expires_at', '<', trx.fn.now()).del();
}

/** Takes a slot (true), or records the holder as waiting for one (false). Idempotent for a holder that has one. */
export async function acquireDeliverySlot(db: Db, input: SlotRequest & { ttlMs: number }): Promise<boolean> {
  return db.transaction(async (trx) => {
    await lockOwner(trx, input.ownerKey);
    const held: Array<{ holder: string; endpoint_id: string }> = await trx('webhook_slots')
      .where({ owner_key: input.ownerKey })
      .select('holder', 'endpoint_id');
    const expiresAt = trx.raw('now() + make_interval(secs => ?)', [input.ttlMs / 1000]);
    const mine = held.some((s) => s.holder === input.holder);
    const full =
      held.length >= input.perOwner ||
      held.filter((s) => s.endpoint_id === input.endpointId).length >= input.perEndpoint;
    if (!mine && full) {
      // The first time it waited is kept: wake-ups go to the longest waiting first.
      await trx('webhook_slot_waiters')
        .insert({ holder: input.holder, endpoint_id: input.endpointId, owner_key: input.ownerKey })
        .onConflict('holder')
        .ignore();
      return false;
    }
    await trx('webhook_slots')
      .insert({ holder: input.holder, endpoint_id: input.endpointId, owner_key: input.ownerKey, expires_at: expiresAt })
      .onConflict('holder')
      .merge({ expires_at: expiresAt });
    await trx('webhook_slot_waiters').where({ holder: input.holder }).del();
    return true;
  });
}

/**
 * Gives the holder's slot back (and drops it from the waiters) and picks the waiters the freed
 * capacity now admits, longest waiting first, within both limits: the caller signals them. A
 * picked waiter leaves the list; if another delivery took the slot first it registers again.
 */
export async function releaseDeliverySlot(db: Db, input: SlotRequest): Promise<string[]> {
  return db.transaction(async (trx) => {
    await lockOwner(trx, input.ownerKey);
    await trx('webhook_slots').where({ holder: input.holder }).del();
    await trx('webhook_slot_waiters').where({ holder: input.holder }).del();
    const held: Array<{ endpoint_id: string }> = await trx('webhook_slots')
      .where({ owner_key: input.ownerKey })
      .select('endpoint_id');
    let free = input.perOwner - held.length;
    if (free <= 0) return [];
    const perEndpoint = new Map<string, number>();
    for (const s of held) perEndpoint.set(s.endpoint_id, (perEndpoint.get(s.endpoint_id) ?? 0) + 1);
    const waiting: Array<{ holder: string; endpoint_id: string }> = await trx('webhook_slot_waiters')
      .where({ owner_key: input.ownerKey })
      .orderBy([{ column: 'since' }, { column: 'holder' }])
      .limit(500)
      .select('holder', 'endpoint_id');
    const picked: string[] = [];
    for (const w of waiting) {
      if (free <= 0) break;
      const n = perEndpoint.get(w.endpoint_id) ?? 0;
      if (n >= input.perEndpoint) continue;
      perEndpoint.set(w.endpoint_id, n + 1);
      picked.push(w.holder);
      free -= 1;
    }
    if (picked.length) await trx('webhook_slot_waiters').whereIn('holder', picked).del();
    return picked;
  });
}

/** Attempt slots held now, per endpoint (the isolation test and operators' queries). */
export async function slotsInUse(db: Db, ownerKey: string): Promise<Array<{ endpoint_id: string; count: number }>> {
  return db('webhook_slots')
    .where({ owner_key: ownerKey })
    .andWhere('expires_at', '>', db.fn.now())
    .groupBy('endpoint_id')
    .select('endpoint_id', db.raw('count(*)::int as count'));
}
