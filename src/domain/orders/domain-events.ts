import type { OrderEvent } from './events';

/**
 * What happened to an order, in the workflow's own terms. The workflow records these; the
 * public EventData of the webhook envelope (PascalCase, docs/webhooks.md) is built from them on
 * the read-model side (persistOrder), so the public shape can change without a workflow change.
 */
export type OrderDomainEvent =
  | { name: 'order.completed' | 'order.cancelled' | 'order.expired' }
  /** An async MIT rescue the card's retry budget ended before its window (docs/network-rules.md). */
  | { name: 'order.expired'; endedBy: 'retry_budget'; rule: string; retryAllowedAt: string }
  | { name: 'order.capturerequired'; amount: number; currency: string; captureBefore: string }
  | { name: 'challenge.presented'; expiresAt: string }
  | { name: 'challenge.attempted'; attempt: number; attemptedAt: string }
  | { name: 'challenge.failed'; failedAt: string }
  | { name: 'challenge.passed'; passedAt: string };

/** An event as the order workflow hands it to persistOrder: the domain event and when it happened. */
export interface EventToPersist {
  occurredAt: string;
  event: OrderDomainEvent;
}

/** The public EventData of a domain event (docs/webhooks.md, docs/orders.md). */
export function publicEventData(e: OrderDomainEvent): OrderEvent['data'] {
  switch (e.name) {
    case 'order.capturerequired':
      return { Amount: e.amount, Currency: e.currency, CaptureBefore: e.captureBefore };
    case 'challenge.presented':
      return { ExpiresAt: e.expiresAt };
    case 'order.expired':
      return 'endedBy' in e ? { EndedBy: e.endedBy, Rule: e.rule, RetryAllowedAt: e.retryAllowedAt } : null;
    case 'challenge.attempted':
      return { Attempt: e.attempt, AttemptedAt: e.attemptedAt };
    case 'challenge.failed':
      return { FailedAt: e.failedAt };
    case 'challenge.passed':
      return { PassedAt: e.passedAt };
    default:
      return null;
  }
}

/** The outbox row's content (without its id) of an event the workflow handed over. */
export function outboxEvent(e: EventToPersist): Omit<OrderEvent, 'id'> {
  return { name: e.event.name, occurredAt: e.occurredAt, data: publicEventData(e.event) };
}
