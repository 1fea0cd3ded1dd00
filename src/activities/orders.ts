import type { Db } from '../db/knex';
import { persistOrder } from '../db/repositories/orders';
import { findSenseSession } from '../db/repositories/sense-sessions';
import type { PersistOrderInput, ScoreInput, ScoreResult } from '../domain/orders/contracts';
import { outboxEvent } from '../domain/orders/domain-events';
import { scoreTransaction } from '../domain/scoring';
import { judgeSenseSession } from '../domain/sense-session';
import { SENSE_KEY_PATTERN } from '../domain/widget-signals';
import { businessMetrics } from '../observability/metrics';
import { storeStep } from './store-failures';

export interface OrderActivityDeps {
  db: Db;
}

/** Activities of the order workflow that touch only our own database: the read model and scoring. */
export function createOrderActivities(deps: OrderActivityDeps) {
  return {
    /**
     * Durable write of one transition (state, transition, events) in one transaction. Idempotent:
     * event ids derive from (order, version, position), and a re-run of the same version rewrites
     * the same row.
     */
    async persistOrder(input: PersistOrderInput): Promise<void> {
      await storeStep('persist order', () => persistOrder(deps.db, input));
      // Counted once the write is durable; a re-run of the same write may count again (rare).
      for (const e of input.events) businessMetrics.orderEvent(outboxEvent(e).name, input.state.flow);
    },

    /**
     * Rules-based rescue score. Device signals count only from a fresh widget session of this
     * merchant whose bound externalOrderId, if any, is the evaluate's (src/domain/sense-session.ts).
     */
    async scoreTransaction(input: ScoreInput): Promise<ScoreResult> {
      const senseKey = input.senseKey?.toLowerCase();
      const session =
        senseKey && SENSE_KEY_PATTERN.test(senseKey)
          ? await storeStep('read sense session', () => findSenseSession(deps.db, input.merchantId, senseKey))
          : undefined;
      const verdict = judgeSenseSession(
        session && { lastSeenAt: session.last_seen_at, externalOrderId: session.external_order_id },
        { externalOrderId: input.externalOrderId },
        new Date(),
      );
      return scoreTransaction(input, verdict === 'fresh' ? 'fresh' : 'absent');
    },
  };
}

export type OrderActivities = ReturnType<typeof createOrderActivities>;
