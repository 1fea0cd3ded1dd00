import { type Db, withDeadline } from '../db/knex';
import { readWebhookBacklog, type WebhookBacklog } from '../db/repositories/webhook-backlog';
import type { Logger } from '../logger';
import { gauge } from './metrics';

/** A scrape reads the backlog at most this often (one query for the three series). */
const FRESH_FOR_MS = 1_000;
/** The query's deadline: a slow database must not hold a scrape. */
const QUERY_DEADLINE_MS = 2_000;

/**
 * The webhook delivery backlog as gauges, read from `webhook_deliveries` when scraped
 * (readWebhookBacklog): deliveries pending (due now or later), those of them already failed at
 * least once (waiting on a retry), and the age of the oldest pending one. Registered by worker processes that deliver webhooks; every such process reports
 * the same database-wide numbers, so dashboards and alerts take `max` (docs/runbook.md). When the
 * query fails the gauges keep their last values and the failure is logged once per outage.
 */
export function registerWebhookBacklogGauges(db: Db, logger: Logger): void {
  let read: { at: number; backlog: Promise<WebhookBacklog | undefined> } | undefined;
  let failing = false;
  const current = (): Promise<WebhookBacklog | undefined> => {
    if (read && Date.now() - read.at < FRESH_FOR_MS) return read.backlog;
    const backlog = withDeadline(readWebhookBacklog(db), QUERY_DEADLINE_MS).then(
      (numbers) => {
        failing = false;
        return numbers;
      },
      (err: unknown) => {
        if (!failing) logger.warn({ err }, 'webhook backlog not read for the metrics');
        failing = true;
        return undefined;
      },
    );
    read = { at: Date.now(), backlog };
    return backlog;
  };
  gauge(
    'rescue_webhook_deliveries_pending',
    'Webhook deliveries not yet delivered nor given up, by whether an attempt already failed (state: new, retrying).',
    ['state'],
    async function collect() {
      const b = await current();
      if (!b) return;
      this.set({ state: 'new' }, b.pending - b.retrying);
      this.set({ state: 'retrying' }, b.retrying);
    },
  );
  gauge(
    'rescue_webhook_oldest_pending_age_seconds',
    'Age of the oldest pending webhook delivery (0 when none is pending).',
    [],
    async function collect() {
      const b = await current();
      if (b) this.set(b.oldestSeconds);
    },
  );
}
