import { z } from 'zod';
import { EVENT_NAMES, type EventName } from '../../domain/webhooks/event-names';

/**
 * The webhook envelope (src/domain/webhooks/envelope.ts) and each event's EventData
 * (docs/webhooks.md, "Events and their EventData"), for the document's `webhooks` section.
 */
const instant = z.iso.datetime({ offset: true });
const money = { Amount: z.number().int().describe('Minor units.'), Currency: z.string() };
const reference = { TransactionId: z.string(), InitialTransactionReference: z.string().nullable() };
const application = z.object({
  ApplicationId: z.uuid(),
  Status: z.string(),
  PreviousStatus: z.string().nullable(),
  Mid: z.uuid().nullable().describe('Set from conversion.'),
  Reason: z.string().nullable(),
});

export const EVENT_DATA: Record<EventName, z.ZodType> = {
  'order.completed': z.null(),
  'order.cancelled': z.null(),
  'order.expired': z
    .object({
      EndedBy: z.literal('retry_budget'),
      Rule: z.string().describe('The network rule that ended it (docs/network-rules.md).'),
      RetryAllowedAt: instant.describe('When that rule lets the card be charged again.'),
    })
    .nullable()
    .describe("null when the rescue window ended the rescue; set when the card's retry budget did."),
  'order.refunded': z.object({ Timestamp: instant, Message: z.string().nullable(), ...reference, ...money }),
  'order.capturerequired': z.object({ ...money, CaptureBefore: instant }),
  'payment.chargeback.received': z.object({ DisputeDateTime: instant, Reason: z.string(), ...reference, ...money }),
  'payment.chargeback.reversed': z.object({
    DisputeDateTime: instant,
    ReversalDateTime: instant,
    Reason: z.string(),
    ...reference,
    ...money,
  }),
  'payment.early_warning.received': z.object({ WarningDateTime: instant, Reason: z.string(), ...reference, ...money }),
  'challenge.presented': z.object({ ExpiresAt: instant }),
  'challenge.attempted': z.object({ Attempt: z.number().int(), AttemptedAt: instant }),
  'challenge.passed': z.object({ PassedAt: instant }),
  'challenge.failed': z.object({ FailedAt: instant }),
  'application.submitted': application,
  'application.canceled': application,
  'application.approved': application,
  'application.declined': application,
  'application.converted': application,
};

/** The envelope of one event, its EventData typed. */
export function envelopeOf(event: EventName): z.ZodType {
  return z.object({
    IdempotencyKey: z.uuid().describe('Same on every retry and resend of this event to this endpoint.'),
    Event: z.literal(event),
    TimeStamp: instant,
    EventData: EVENT_DATA[event],
    Mid: z.uuid().nullable(),
    Pid: z.uuid(),
    ExternalOrderId: z.string().nullable(),
    OrderId: z.uuid().nullable(),
    ConfirmationId: z.string().nullable(),
    IsTestMode: z.boolean(),
    IsResent: z.boolean(),
  });
}

export const SIGNATURE_HEADERS: Record<string, string> = {
  'x-fc-content-sha512': 'Base64 of the SHA-512 of the body.',
  'x-fc-date': 'HTTP date of the attempt (reject stale ones).',
  'x-fc-nonce': 'A fresh UUID per attempt.',
  'x-fc-authorization':
    'HMAC-SHA512 SignedHeaders=x-fc-nonce;x-fc-date;host;x-fc-content-sha512&Signature=<signature> (docs/webhooks.md).',
  'x-fc-signature': 'Base64 HMAC-SHA512 of the body with the endpoint secret.',
};

export const WEBHOOK_EVENTS = EVENT_NAMES;
