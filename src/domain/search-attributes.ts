/**
 * Custom search attributes set on every order workflow, so operators can find and filter orders
 * in the Temporal Web UI (for example `FcMerchantId = "..." AND FcOrderStatus = "Cancelled"`).
 * Registered on start (dev server) or through the operator service (TEMPORAL_ADDRESS).
 */
export const SEARCH_ATTRIBUTES = {
  merchantId: { name: 'FcMerchantId', type: 'Keyword' },
  externalOrderId: { name: 'FcExternalOrderId', type: 'Keyword' },
  /** The orderId merchants quote (our GUID), and the confirmation once completed. */
  orderId: { name: 'FcOrderId', type: 'Keyword' },
  confirmationId: { name: 'FcConfirmationId', type: 'Keyword' },
  /** `in_flight` while the order can still change by itself or by a command; `settled` once final. */
  lifecycle: { name: 'FcLifecycle', type: 'Keyword' },
  orderStatus: { name: 'FcOrderStatus', type: 'Keyword' },
  flow: { name: 'FcFlow', type: 'Keyword' },
  testMode: { name: 'FcTestMode', type: 'Bool' },
} as const;

export type SearchAttributeType = (typeof SEARCH_ATTRIBUTES)[keyof typeof SEARCH_ATTRIBUTES]['type'];
