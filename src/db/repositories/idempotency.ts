import type { Db } from '../knex';

/**
 * Idempotency records: one per (merchant, idempotencyKey), kept 24 hours. The first request
 * claims the key (in flight), then stores its answer (completed); a retry replays that answer.
 */
export const REPLAY_WINDOW_MS = 24 * 3_600_000;
/** An in-flight claim older than this is taken over (its API process died before answering). */
export const ABANDONED_AFTER_MS = 2 * 60_000;
const STORE_TIMEOUT_MS = 2_000;

export type Claim =
  | { kind: 'claimed' }
  | { kind: 'replay'; status: number; body: string }
  | { kind: 'conflict'; reason: 'in_flight' | 'mismatch' };

interface Scope {
  merchantId: string;
  key: string;
}

export async function claimIdempotencyKey(
  db: Db,
  scope: Scope & { operation: string; requestHash: string },
  now: Date,
): Promise<Claim> {
  const fresh = {
    merchant_id: scope.merchantId,
    key: scope.key,
    operation: scope.operation,
    request_hash: scope.requestHash,
    state: 'in_flight',
    created_at: now,
    expires_at: new Date(now.getTime() + REPLAY_WINDOW_MS),
  };
  for (let attempt = 0; attempt < 2; attempt++) {
    const inserted = await db('idempotency_keys')
      .insert(fresh)
      .onConflict(['merchant_id', 'key'])
      .ignore()
      .returning('key')
      .timeout(STORE_TIMEOUT_MS, { cancel: true });
    if (inserted.length) return { kind: 'claimed' };
    const row = await db('idempotency_keys')
      .where({ merchant_id: scope.merchantId, key: scope.key })
      .first()
      .timeout(STORE_TIMEOUT_MS, { cancel: true });
    if (!row) continue; // expired and removed meanwhile: claim again
    if (row.expires_at <= now) {
      // Past the replay window the key is free again.
      await db('idempotency_keys')
        .where({ merchant_id: scope.merchantId, key: scope.key })
        .andWhere('expires_at', '<=', now)
        .delete()
        .timeout(STORE_TIMEOUT_MS, { cancel: true });
      continue;
    }
    if (row.operation !== scope.operation || row.request_hash !== scope.requestHash)
      return { kind: 'conflict', reason: 'mismatch' };
    if (row.state === 'completed') return { kind: 'replay', status: row.response_status, body: row.response_body };
    if (now.getTime() - row.created_at.getTime() < ABANDONED_AFTER_MS) return { kind: 'conflict', reason: 'in_flight' };
    const taken = await db('idempotency_keys')
      .where({ merchant_id: scope.merchantId, key: scope.key, state: 'in_flight', created_at: row.created_at })
      .update({ created_at: now })
      .timeout(STORE_TIMEOUT_MS, { cancel: true });
    return taken ? { kind: 'claimed' } : { kind: 'conflict', reason: 'in_flight' };
  }
  return { kind: 'conflict', reason: 'in_flight' };
}

export async function completeIdempotencyKey(db: Db, scope: Scope, status: number, body: string): Promise<void> {
  await db('idempotency_keys')
    .where({ merchant_id: scope.merchantId, key: scope.key })
    .update({ state: 'completed', response_status: status, response_body: body })
    .timeout(STORE_TIMEOUT_MS, { cancel: true });
}

/** Frees a claim whose outcome is unknown (a 5xx), so the caller may retry with the same key. */
export async function releaseIdempotencyKey(db: Db, scope: Scope): Promise<void> {
  await db('idempotency_keys').where({ merchant_id: scope.merchantId, key: scope.key, state: 'in_flight' }).delete();
}
