import { randomUUID } from 'node:crypto';
import type { EventName } from './event-names';

/** The header a test delivery carries (not signed: the signed hint is the `fc-test-` ExternalOrderId). */
export const TEST_EVENT_HEADER = 'x-fc-test';

/** Prefix of a test event's ExternalOrderId: part of the signed body, so a verifier can trust it. */
export const TEST_EXTERNAL_ORDER_ID_PREFIX = 'fc-test-';

/** The envelope fields a test event of `name` carries, with realistic sample values. */
export interface TestEventSample {
  orderId: string | null;
  externalOrderId: string | null;
  confirmationId: string | null;
  data: Record<string, unknown> | null;
}

/**
 * A sample of each event type, shaped as the real ones (docs/webhooks.md, EventData table):
 * amounts in minor units, ids as UUIDs, instants as ISO 8601. Order-less events (application.*)
 * have no OrderId.
 */
export function testEventSample(name: EventName, now: Date, mid: string | null): TestEventSample {
  const iso = (offsetMs = 0) => new Date(now.getTime() + offsetMs).toISOString();
  const money = { Amount: 1500, Currency: 'USD' };
  const order = {
    orderId: randomUUID(),
    externalOrderId: `${TEST_EXTERNAL_ORDER_ID_PREFIX}${randomUUID()}`,
    confirmationId: randomUUID(),
  };
  const reference = { TransactionId: randomUUID(), InitialTransactionReference: randomUUID() };
  const reason = '10.4 Other Fraud - Card Absent Environment';
  const application = (status: string, previous: string, reasonText: string | null = null) => ({
    orderId: null,
    externalOrderId: null,
    confirmationId: null,
    data: { ApplicationId: randomUUID(), Status: status, PreviousStatus: previous, Mid: mid, Reason: reasonText },
  });
  switch (name) {
    case 'order.completed':
    case 'order.cancelled':
    case 'order.expired':
      return { ...order, data: null };
    case 'order.refunded':
      return { ...order, data: { Timestamp: iso(), Message: 'Refund processed', ...reference, ...money } };
    case 'order.capturerequired':
      return { ...order, data: { ...money, CaptureBefore: iso(7 * 86_400_000) } };
    case 'payment.chargeback.received':
      return { ...order, data: { DisputeDateTime: iso(), Reason: reason, ...reference, ...money } };
    case 'payment.chargeback.reversed':
      return {
        ...order,
        data: { DisputeDateTime: iso(-86_400_000), ReversalDateTime: iso(), Reason: reason, ...reference, ...money },
      };
    case 'payment.early_warning.received':
      return { ...order, data: { WarningDateTime: iso(), Reason: 'TC40 fraud report', ...reference, ...money } };
    case 'challenge.presented':
      return { ...order, data: { ExpiresAt: iso(15 * 60_000) } };
    case 'challenge.attempted':
      return { ...order, data: { Attempt: 1, AttemptedAt: iso() } };
    case 'challenge.passed':
      return { ...order, data: { PassedAt: iso() } };
    case 'challenge.failed':
      return { ...order, data: { FailedAt: iso() } };
    case 'application.submitted':
      return application('SUBMITTED', 'DRAFT');
    case 'application.canceled':
      return application('CANCELED', 'SUBMITTED');
    case 'application.approved':
      return application('APPROVED', 'SUBMITTED');
    case 'application.declined':
      return application('DECLINED', 'SUBMITTED', 'Website does not match the business');
    case 'application.converted':
      return application('CONVERTED', 'APPROVED');
  }
}
