import type { EventName } from '../../../domain/webhooks/event-names';
import { APPLICATION_ID, MID, ORDER_ID, PID, UPDATED_AT } from './values';

/** One signed envelope per webhook event (docs/webhooks.md), for the document's `webhooks`. */
const money = { Amount: 2500, Currency: 'USD' };
const reference = { TransactionId: '2d4f6a8c-0e2b-4d6f-8a1c-3e5a7c9e1b3d', InitialTransactionReference: null };
const application = (Status: string, PreviousStatus: string | null, Mid: string | null = null) => ({
  ApplicationId: APPLICATION_ID,
  Status,
  PreviousStatus,
  Mid,
  Reason: null,
});

const EVENT_DATA_EXAMPLES: Record<EventName, unknown> = {
  'order.completed': null,
  'order.cancelled': null,
  'order.expired': null,
  'order.refunded': { Timestamp: UPDATED_AT, Message: null, ...reference, ...money, Amount: 1000 },
  'order.capturerequired': { ...money, CaptureBefore: '2025-03-14T09:32:02.114Z' },
  'payment.chargeback.received': { DisputeDateTime: UPDATED_AT, Reason: 'Fraudulent', ...reference, ...money },
  'payment.chargeback.reversed': {
    DisputeDateTime: UPDATED_AT,
    ReversalDateTime: '2025-03-20T12:00:00.000Z',
    Reason: 'Fraudulent',
    ...reference,
    ...money,
  },
  'payment.early_warning.received': {
    WarningDateTime: UPDATED_AT,
    Reason: 'Issuer fraud report',
    ...reference,
    ...money,
  },
  'challenge.presented': { ExpiresAt: '2025-03-14T09:42:02.114Z' },
  'challenge.attempted': { Attempt: 1, AttemptedAt: UPDATED_AT },
  'challenge.passed': { PassedAt: UPDATED_AT },
  'challenge.failed': { FailedAt: UPDATED_AT },
  'application.submitted': application('SUBMITTED', 'DRAFT'),
  'application.canceled': application('CANCELED', 'DRAFT'),
  'application.approved': application('APPROVED', 'SUBMITTED'),
  'application.declined': application('DECLINED', 'SUBMITTED'),
  'application.converted': application('CONVERTED', 'APPROVED', MID),
};

export function envelopeExample(event: EventName): unknown {
  const isApplication = event.startsWith('application.');
  return {
    IdempotencyKey: '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e',
    Event: event,
    TimeStamp: UPDATED_AT,
    EventData: EVENT_DATA_EXAMPLES[event],
    Mid: isApplication && event !== 'application.converted' ? null : MID,
    Pid: PID,
    ExternalOrderId: isApplication ? null : 'shop-1001',
    OrderId: isApplication ? null : ORDER_ID,
    ConfirmationId: isApplication ? null : 'PRS-7Q4K2M9X',
    IsTestMode: true,
    IsResent: false,
  };
}
