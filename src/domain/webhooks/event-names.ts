/**
 * Every event the service sends (spec: Events > Event list). Order events spell "cancelled",
 * application events "canceled". New event types are only ever added.
 */
export const EVENT_NAMES = [
  'order.refunded',
  'order.completed',
  'order.cancelled',
  'order.expired',
  'order.capturerequired',
  'payment.chargeback.received',
  'payment.chargeback.reversed',
  'payment.early_warning.received',
  'challenge.presented',
  'challenge.attempted',
  'challenge.passed',
  'challenge.failed',
  'application.submitted',
  'application.canceled',
  'application.approved',
  'application.declined',
  'application.converted',
] as const;

export type EventName = (typeof EVENT_NAMES)[number];

export function isEventName(name: string): name is EventName {
  return (EVENT_NAMES as readonly string[]).includes(name);
}

/** What an application event's name starts with (the outbox fan-out's statement tests it too). */
export const PARTNER_EVENT_PREFIX = 'application.';

/** Application events go to the partner's endpoints; all others to the merchant's. */
export function isPartnerEvent(name: string): boolean {
  return name.startsWith(PARTNER_EVENT_PREFIX);
}
