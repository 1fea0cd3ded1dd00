import type { Db } from '../knex';

/** The webhook deliveries not yet delivered nor given up (src/observability/webhook-backlog.ts). */
export interface WebhookBacklog {
  /** Deliveries pending, due now or later. */
  pending: number;
  /** Those of them already failed at least once (waiting on a retry). */
  retrying: number;
  /** Age of the oldest pending one (0 when none is pending). */
  oldestSeconds: number;
}

/** One query for the three numbers; the partial index on pending rows keeps the count cheap. */
export async function readWebhookBacklog(db: Db): Promise<WebhookBacklog> {
  const row = await db('webhook_deliveries')
    .where({ status: 'pending' })
    .first<WebhookBacklog>(
      db.raw('count(*)::int as pending'),
      db.raw('(count(*) filter (where attempts > 0))::int as retrying'),
      db.raw('coalesce(extract(epoch from now() - min(created_at)), 0)::float as "oldestSeconds"'),
    );
  return row;
}
