import type { Db } from '../../src/db/knex';
import { eventually } from './eventually';

export interface OutboxState {
  /** Events the relay has not fanned out yet. */
  undispatched: number;
  /** Deliveries whose workflow has not reached delivered, failed or stopped. */
  pending: number;
  /** Delivery attempts recorded so far. */
  attempts: number;
}

export async function outboxState(db: Db): Promise<OutboxState> {
  const [events, deliveries, attempts] = await Promise.all([
    db('events').whereNull('dispatched_at').count<{ count: string }[]>({ count: '*' }),
    db('webhook_deliveries').where({ status: 'pending' }).count<{ count: string }[]>({ count: '*' }),
    db('webhook_attempts').count<{ count: string }[]>({ count: '*' }),
  ]);
  return {
    undispatched: Number(events[0]?.count),
    pending: Number(deliveries[0]?.count),
    attempts: Number(attempts[0]?.count),
  };
}

/**
 * Waits until the webhook pipeline is idle: every event in the outbox fanned out and every
 * delivery settled. A delivery is marked delivered only after its receiver answered, so from then
 * on nothing more can reach a receiver: counting what arrived is final, not "so far". Only for
 * databases where every endpoint answers (a hanging endpoint keeps its deliveries pending).
 */
export async function outboxSettled(db: Db, timeoutMs = 30_000): Promise<OutboxState> {
  return eventually(
    () => outboxState(db),
    (s) => s.undispatched === 0 && s.pending === 0,
    { describe: 'every outbox event fanned out and every webhook delivery settled', timeoutMs, intervalMs: 200 },
  );
}
