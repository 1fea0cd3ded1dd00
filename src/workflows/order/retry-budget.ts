import type { RetryBudget } from '../../domain/retry-budget';
import { store } from './activities';
import type { Order } from './order';
import { expire } from './steps';

/**
 * The card networks' retry limits, across the merchant's orders of one card (docs/network-rules.md):
 * read from the charges ledger before the order charges, at the workflow's time.
 */

/** The card's budget now; null when the token names no vaulted card (the charge declines it). */
export function cardBudget(order: Order): Promise<RetryBudget | null> {
  const s = order.state;
  return store.cardRetryBudget({ merchantId: s.merchantId, cardToken: s.card.token, now: new Date().toISOString() });
}

/** When the budget holds the next attempt back (epoch ms, later than now), or null. */
export function heldUntil(budget: RetryBudget | null): number | null {
  const until = budget?.notBefore ? Date.parse(budget.notBefore) : null;
  return until !== null && until > Date.now() ? until : null;
}

/**
 * Before an async MIT retry: null when the card may be charged now; else the time the next
 * attempt is moved to (recorded on the order), or 'ended' when no attempt is allowed before the
 * window's end (the rescue expires, its order.expired saying the budget ended it).
 */
export async function holdRetryForBudget(order: Order, windowEnd: Date): Promise<number | 'ended' | null> {
  const budget = await cardBudget(order);
  const until = heldUntil(budget);
  if (until === null || !budget?.notBefore) return null;
  const rule = budget.heldBy ?? 'retry_budget';
  if (until >= windowEnd.getTime()) {
    await expire(
      order,
      'retry',
      `retry budget exhausted (${rule}): no attempt allowed before the window's end`,
      undefined,
      {
        rule,
        retryAllowedAt: budget.notBefore,
      },
    );
    return 'ended';
  }
  await order.commit(
    'retry',
    { retryHold: { until: budget.notBefore, rule } },
    `next retry held until ${budget.notBefore} (${rule})`,
  );
  return until;
}
