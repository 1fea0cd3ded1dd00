import { randomUUID } from 'node:crypto';
import type { Db } from '../../src/db/knex';
import { eventually } from './eventually';

/** An `order.completed` outbox row as an order workflow writes it, for the relay to fan out. */
export function completedOrderEvent(
  merchant: { pid: string; mid: string },
  externalOrderId: string,
  extra: { dispatched_at?: Date } = {},
) {
  return {
    id: randomUUID(),
    name: 'order.completed',
    merchant_id: merchant.mid,
    partner_id: merchant.pid,
    order_id: randomUUID(),
    external_order_id: externalOrderId,
    confirmation_id: randomUUID(),
    data: null,
    is_test_mode: true,
    occurred_at: new Date(),
    ...extra,
  };
}

export interface OutboxState {
  /** Events the relay has not fanned out yet. */
  undispatched: number;
  /** Deliveries whose workflow has not reached delivered, failed or stopped. */
  pending: number;
  /** Delivery attempts recorded so far. */
  attempts: number;
}

export async function outboxState(db: Db): Promise<OutboxState> {
  // One statement, so one snapshot: an attempt and its delivery's new status commit together, and
  // counts read by separate queries could see one without the other.
  const { rows } = await db.raw(
    `select (select count(*) from events where dispatched_at is null) as undispatched,
            (select count(*) from webhook_deliveries where status = 'pending') as pending,
            (select count(*) from webhook_attempts) as attempts`,
  );
  const [row] = rows as Array<Record<keyof OutboxState, string>>;
  return { undispatched: Number(row?.undispatched), pending: Number(row?.pending), attempts: Number(row?.attempts) };
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
