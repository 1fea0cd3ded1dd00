/**
 * The order and challenge events a workflow emits, as the envelope's `Event` names. Order events
 * spell `cancelled` with two l's (application events use one).
 */
export type OrderEventName =
  | 'order.completed'
  | 'order.cancelled'
  | 'order.expired'
  | 'order.capturerequired'
  | 'order.refunded'
  | 'challenge.presented'
  | 'challenge.attempted'
  | 'challenge.passed'
  | 'challenge.failed';

export interface RefundedEventData {
  Timestamp: string;
  Message: string;
  TransactionId: string;
  InitialTransactionReference: string;
  Amount: number;
  Currency: string;
}

/** EventData of order.capturerequired (the interface leaves it open; docs/orders.md). */
export interface CaptureRequiredEventData {
  Amount: number;
  Currency: string;
  CaptureBefore: string;
}

/** An event as the workflow records it; the outbox adds the envelope fields it knows. */
export interface OrderEvent {
  id: string;
  name: OrderEventName;
  occurredAt: string;
  data: RefundedEventData | CaptureRequiredEventData | Record<string, unknown> | null;
}
