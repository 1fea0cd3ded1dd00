import type { Db } from '../db/knex';
import { readCardRetryBudget } from '../db/repositories/card-retry-budget';
import type { NetworkRegion } from '../domain/network-rules';
import type { RetryBudget } from '../domain/retry-budget';
import { storeStep } from './store-failures';

export interface RetryBudgetActivityDeps {
  db: Db;
  networkRegion: NetworkRegion;
}

/** The card's retry budget, read by the order workflow before it charges (docs/network-rules.md). */
export function createRetryBudgetActivities(deps: RetryBudgetActivityDeps) {
  return {
    /**
     * What the networks' rules allow the card next, at the workflow's time `now` (its timers' clock,
     * the one the ledger's attempt times are on). Null when the token names no card of the merchant:
     * the charge then declines it as an invalid card, as before.
     */
    async cardRetryBudget(input: { merchantId: string; cardToken: string; now: string }): Promise<RetryBudget | null> {
      const budget = await storeStep('read card retry budget', () =>
        readCardRetryBudget(deps.db, input.merchantId, input.cardToken, deps.networkRegion, new Date(input.now)),
      );
      return budget ?? null;
    },
  };
}

export type RetryBudgetActivities = ReturnType<typeof createRetryBudgetActivities>;
