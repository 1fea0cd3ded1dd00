import {
  defineSearchAttributeKey,
  SearchAttributeType,
  type SearchAttributeUpdatePair,
  TypedSearchAttributes,
} from '@temporalio/common';
import type { OrderState } from '../domain/orders/contracts';
import type { Flow } from '../domain/orders/status';
import { isFinal } from '../domain/orders/transitions';
import { SEARCH_ATTRIBUTES } from '../domain/search-attributes';

// Typed keys of the order search attributes (names from src/domain/search-attributes.ts).
const keys = {
  merchantId: defineSearchAttributeKey(SEARCH_ATTRIBUTES.merchantId.name, SearchAttributeType.KEYWORD),
  externalOrderId: defineSearchAttributeKey(SEARCH_ATTRIBUTES.externalOrderId.name, SearchAttributeType.KEYWORD),
  orderId: defineSearchAttributeKey(SEARCH_ATTRIBUTES.orderId.name, SearchAttributeType.KEYWORD),
  confirmationId: defineSearchAttributeKey(SEARCH_ATTRIBUTES.confirmationId.name, SearchAttributeType.KEYWORD),
  lifecycle: defineSearchAttributeKey(SEARCH_ATTRIBUTES.lifecycle.name, SearchAttributeType.KEYWORD),
  orderStatus: defineSearchAttributeKey(SEARCH_ATTRIBUTES.orderStatus.name, SearchAttributeType.KEYWORD),
  flow: defineSearchAttributeKey(SEARCH_ATTRIBUTES.flow.name, SearchAttributeType.KEYWORD),
  testMode: defineSearchAttributeKey(SEARCH_ATTRIBUTES.testMode.name, SearchAttributeType.BOOL),
};

/** The search attributes of an order in this state, for operators filtering in the Temporal UI. */
export function orderSearchAttributes(s: OrderState): SearchAttributeUpdatePair[] {
  return [
    { key: keys.merchantId, value: s.merchantId },
    { key: keys.externalOrderId, value: s.externalOrderId },
    { key: keys.orderId, value: s.orderId },
    ...(s.confirmationId ? [{ key: keys.confirmationId, value: s.confirmationId }] : []),
    { key: keys.lifecycle, value: isFinal(s.status) ? 'settled' : 'in_flight' },
    { key: keys.orderStatus, value: s.status },
    { key: keys.flow, value: s.flow },
    { key: keys.testMode, value: s.isTestMode },
  ];
}

/**
 * What an upsert of this state sends: the attributes whose values differ from the run's (the
 * server merges an upsert into what the run has, so the rest need not travel in every status
 * change's history event). Never empty: when nothing differs the status goes, so the upsert an
 * order decided on stays one command (replay matches the command, not its contents).
 */
export function changedSearchAttributes(run: TypedSearchAttributes, s: OrderState): SearchAttributeUpdatePair[] {
  const all = orderSearchAttributes(s);
  const changed = all.filter((pair) => run.get(pair.key) !== pair.value);
  return changed.length > 0 ? changed : all.filter((pair) => pair.key === keys.orderStatus);
}

/** Whether two states of an order carry the same search attributes (nothing to upsert between them). */
export function sameSearchAttributes(a: OrderState, b: OrderState): boolean {
  const values = (s: OrderState) => JSON.stringify(orderSearchAttributes(s).map((pair) => [pair.key.name, pair.value]));
  return values(a) === values(b);
}

/** The attributes an order workflow starts with (before its first evaluate is decided). */
export function orderStartSearchAttributes(order: {
  merchantId: string;
  externalOrderId: string;
  orderId: string;
  flow: Flow;
  isTestMode: boolean;
}): TypedSearchAttributes {
  return new TypedSearchAttributes([
    { key: keys.merchantId, value: order.merchantId },
    { key: keys.externalOrderId, value: order.externalOrderId },
    { key: keys.orderId, value: order.orderId },
    { key: keys.lifecycle, value: 'in_flight' },
    { key: keys.flow, value: order.flow },
    { key: keys.testMode, value: order.isTestMode },
  ]);
}
