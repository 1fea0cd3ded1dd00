import { defineSearchAttributeKey, SearchAttributeType, type SearchAttributeUpdatePair } from '@temporalio/common';
import type { OrderState } from '../domain/orders/contracts';
import { SEARCH_ATTRIBUTES } from '../domain/search-attributes';

// Typed keys of the order search attributes (names from src/domain/search-attributes.ts).
const keys = {
  merchantId: defineSearchAttributeKey(SEARCH_ATTRIBUTES.merchantId.name, SearchAttributeType.KEYWORD),
  externalOrderId: defineSearchAttributeKey(SEARCH_ATTRIBUTES.externalOrderId.name, SearchAttributeType.KEYWORD),
  orderStatus: defineSearchAttributeKey(SEARCH_ATTRIBUTES.orderStatus.name, SearchAttributeType.KEYWORD),
  flow: defineSearchAttributeKey(SEARCH_ATTRIBUTES.flow.name, SearchAttributeType.KEYWORD),
  testMode: defineSearchAttributeKey(SEARCH_ATTRIBUTES.testMode.name, SearchAttributeType.BOOL),
};

/** The search attributes of an order in this state, for operators filtering in the Temporal UI. */
export function orderSearchAttributes(s: OrderState): SearchAttributeUpdatePair[] {
  return [
    { key: keys.merchantId, value: s.merchantId },
    { key: keys.externalOrderId, value: s.externalOrderId },
    { key: keys.orderStatus, value: s.status },
    { key: keys.flow, value: s.flow },
    { key: keys.testMode, value: s.isTestMode },
  ];
}
