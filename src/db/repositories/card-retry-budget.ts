import { isUuid } from '../../domain/ids';
import type { NetworkRegion } from '../../domain/network-rules';
import { NETWORK_RULES_LOOKBACK_MS } from '../../domain/network-rules';
import { type RetryBudget, retryBudget } from '../../domain/retry-budget';
import type { Db } from '../knex';
import { cardDeclines } from './card-declines';

/**
 * A vaulted card's retry budget at its merchant (docs/network-rules.md): its declines in the
 * charges ledger, by the vault's fingerprint (so every order and token of the card counts once),
 * under the networks' rules for its brand and the deployment's region. Undefined when the token is
 * not this merchant's card.
 */
export async function readCardRetryBudget(
  db: Db,
  merchantId: string,
  cardToken: string,
  region: NetworkRegion,
  now: Date,
): Promise<RetryBudget | undefined> {
  if (!isUuid(cardToken)) return undefined;
  const card = await db('card_vault')
    .select('fingerprint', 'brand')
    .where({ token: cardToken, merchant_id: merchantId })
    .first();
  if (!card) return undefined;
  const since = new Date(now.getTime() - NETWORK_RULES_LOOKBACK_MS);
  const declines = await cardDeclines(db, merchantId, card.fingerprint, since);
  return retryBudget(card.brand, region, declines, now.getTime());
}
