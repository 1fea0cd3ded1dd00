import type { Db } from '../db/knex';
import { persistOrder } from '../db/repositories/orders';
import type { PersistOrderInput } from '../domain/orders/contracts';
import { outboxEvent } from '../domain/orders/domain-events';
import { businessMetrics } from '../observability/metrics';
import { storeStep } from './store-failures';

export interface OrderActivityDeps {
  db: Db;
}

/** Activities of the order workflow that touch only our own database: the read model. */
export function createOrderActivities(deps: OrderActivityDeps) {
  return {
    /**
     * Durable write of one transition (state, transition, events) in one transaction. Idempotent:
     * event ids derive from (order, version, position), and a re-run of the same version rewrites
     * the same row.
     */
    async persistOrder(input: PersistOrderInput): Promise<void> {
      await storeStep('persist order', () => persistOrder(deps.db, input));
      countOrderWrite(input);
    },
  };
}

/** The business metrics of a durable write of the read model (docs/runbook.md). */
export function countOrderWrite(input: PersistOrderInput): void {
  // Counted once the write is durable; a re-run of the same write may count again (rare).
  for (const e of input.events) {
    const name = outboxEvent(e).name;
    businessMetrics.orderEvent(name, input.state.flow);
    // Recovered: what a Completed order (a declined payment, rescued) captured (docs/runbook.md).
    if (name === 'order.completed')
      businessMetrics.recovered(input.state.capturedAmount, input.state.currency, input.state.flow);
  }
  if (input.transition) businessMetrics.orderTransition(input.transition.to, input.state.flow);
}

export type OrderActivities = ReturnType<typeof createOrderActivities>;
