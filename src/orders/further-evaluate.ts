import { isVaultedCard, sameVaultedCard } from '../db/repositories/card-vault';
import { findMerchantOrderByExternalId, type OrderRow } from '../db/repositories/orders';
import type { EvaluateRequest } from '../domain/orders/evaluate-request';
import { OrderFailure } from '../domain/orders/order-failure';
import { paymentDifferences } from '../domain/orders/same-payment';
import { outcomeForStatus } from '../domain/orders/status';
import type { OrderDeps } from './deps';
import type { EvaluateDecision } from './evaluate-decision';
import { orderRequestMismatch } from './order-request-mismatch';

/**
 * A further evaluate for an order that exists already: refused when it is another payment
 * without a new attempt, answered from the read model when the order's workflow has closed.
 */

/**
 * Evaluate of an order whose workflow has closed: its outcome, if it is the same payment (the order
 * may have been decided meanwhile by a concurrent evaluate with another amount); Sync MIT past its
 * cutoff is DECLINED.
 */
export async function closedOrderEvaluate(
  deps: OrderDeps,
  merchantId: string,
  body: EvaluateRequest,
  card: SentCard | undefined,
): Promise<EvaluateDecision> {
  const { externalOrderId } = body;
  const order = await findMerchantOrderByExternalId(deps.db, merchantId, externalOrderId);
  if (!order) throw new OrderFailure({ reason: 'internal_error' });
  await refuseDifferentPayment(deps, merchantId, order, body, card);
  // A charge that went unanswered may stand: never "fall back to the decline" (503002) over it.
  if (order.status_name === 'Problem')
    throw new OrderFailure({ reason: order.charge_outcome_unknown ? 'order_outcome_pending' : 'rescue_unavailable' });
  // Sync MIT: a call after the window closed is DECLINED, even for an order that was rescued.
  const windowClosed = order.window_ends_at !== null && deps.clock.now().getTime() >= order.window_ends_at.getTime();
  const outcome = order.flow === 'SYNC_MIT' && windowClosed ? 'DECLINED' : outcomeForStatus(order.status_name);
  return {
    orderId: order.id,
    orderSessionKey: order.order_session_key,
    senseKey: order.sense_key,
    externalOrderId,
    outcome,
    status: order.status_name,
  };
}

/** The card an evaluate sent: its number, or a vault token. */
export type SentCard = { pan: string } | { token: string };

/**
 * A further evaluate for an existing order must be the same payment (amount, currency, card)
 * unless it is a new attempt (`attemptCount` above the order's). Otherwise it would silently get
 * the old order's answer for a different charge: order_request_mismatch, before any workflow is asked.
 * The card is compared through the vault's fingerprint (never in clear), so another token of the
 * order's card (the tokenization key gives each call its own) is the same card.
 */
export async function refuseDifferentPayment(
  deps: OrderDeps,
  merchantId: string,
  existing: OrderRow,
  body: EvaluateRequest,
  card: SentCard | undefined,
): Promise<void> {
  const sameCard = async () =>
    card === undefined ||
    ('token' in card
      ? sameVaultedCard(deps.db, merchantId, existing.card_token, card.token)
      : isVaultedCard(deps.db, merchantId, existing.card_token, card.pan, deps.vaultKeys));
  const order = { amount: existing.amount, currency: existing.currency, attemptCount: existing.attempt_count };
  const request = { ...body.transaction, attemptCount: body.attemptCount ?? null, sameCard: await sameCard() };
  const differs = paymentDifferences(order, request);
  if (differs.length) throw orderRequestMismatch(existing.id, existing.status_name, differs);
}

/**
 * The card a further evaluate charges: the order's own token when the card sent is the order's
 * card under another token (the workflow compares tokens, and a card number vaults as its first).
 */
export async function asOrdersCard<T extends { token: string }>(
  db: OrderDeps['db'],
  merchantId: string,
  existing: OrderRow,
  sent: T,
): Promise<T> {
  if (sent.token === existing.card_token) return sent;
  return (await sameVaultedCard(db, merchantId, existing.card_token, sent.token))
    ? { ...sent, token: existing.card_token }
    : sent;
}
