import { type HoldRule, type LimitRule, type NetworkRegion, networkOf, rulesFor } from './network-rules';

/**
 * A card's retry budget at one merchant: what the networks' rules (src/domain/network-rules.ts)
 * allow next, given the card's declined attempts in the charges ledger, whichever order made them.
 * Pure: the activity reads the declines, the workflow and the order lookup read the answer.
 */

/** One declined charge of the card (any of the merchant's orders), as the ledger recorded it. */
export interface CardDecline {
  /** When the attempt was made (epoch ms). */
  at: number;
  networkCode: string | null;
  merchantAdviceCode: string | null;
}

export interface RetryBudget {
  /** Declines counted by the binding limit (the one with the least room left). */
  used: number;
  limit: number;
  /** When the oldest counted decline leaves that limit's window (the budget grows by one); null if none. */
  resetsAt: string | null;
  /** The earliest time the next attempt is allowed: null means now. */
  notBefore: string | null;
  /** The rule that holds it back until `notBefore` (null when allowed now). */
  heldBy: string | null;
}

const matches = (rule: HoldRule, d: CardDecline): boolean => {
  const m = rule.match;
  const norm = (c: string | null) => (c ?? '').trim().toUpperCase();
  return 'networkCodes' in m
    ? m.networkCodes.includes(norm(d.networkCode))
    : m.merchantAdviceCodes.includes(norm(d.merchantAdviceCode));
};

/** `declines` in any order; `now` is the caller's clock (the workflow's, in the order workflow). */
export function retryBudget(
  brand: string,
  region: NetworkRegion,
  declines: readonly CardDecline[],
  now: number,
): RetryBudget {
  const rules = rulesFor(networkOf(brand), region);
  const sorted = [...declines].filter((d) => d.at <= now).sort((a, b) => a.at - b.at);
  const holds: Array<{ until: number; id: string }> = [];

  const limits = rules.filter((r): r is LimitRule => r.kind === 'limit');
  let binding: { rule: LimitRule; counted: CardDecline[] } | null = null;
  for (const rule of limits) {
    const counted = sorted.filter((d) => d.at > now - rule.windowMs);
    if (!binding || rule.maxDeclines - counted.length < binding.rule.maxDeclines - binding.counted.length)
      binding = { rule, counted };
    // Full: the next attempt waits until enough of the counted declines leave the window.
    const over = counted.length - rule.maxDeclines;
    const freeing = counted[over];
    if (over >= 0 && freeing) holds.push({ until: freeing.at + rule.windowMs, id: rule.id });
  }

  const latest = sorted.at(-1);
  for (const rule of rules) {
    if (rule.kind === 'limit') continue;
    const applies = rule.kind === 'stop' ? sorted : latest ? [latest] : [];
    for (const d of applies)
      if (matches(rule, d) && d.at + rule.holdMs > now) holds.push({ until: d.at + rule.holdMs, id: rule.id });
  }

  const held = holds.sort((a, b) => b.until - a.until)[0];
  const oldest = binding?.counted[0];
  return {
    used: binding?.counted.length ?? 0,
    limit: binding?.rule.maxDeclines ?? 0,
    resetsAt: binding && oldest ? new Date(oldest.at + binding.rule.windowMs).toISOString() : null,
    notBefore: held ? new Date(held.until).toISOString() : null,
    heldBy: held?.id ?? null,
  };
}
