/** The webhook body, field for field as the interface's Envelope table. */
export interface WebhookEnvelope {
  IdempotencyKey: string;
  Event: string;
  TimeStamp: string;
  EventData: unknown;
  Mid: string | null;
  Pid: string;
  ExternalOrderId: string | null;
  OrderId: string | null;
  ConfirmationId: string | null;
  IsTestMode: boolean;
  IsResent: boolean;
}

/**
 * The body's content type: JSON text, but not `application/json` (the interface says so; some
 * merchant frameworks would otherwise parse and re-serialise it, breaking the content hash).
 */
export const WEBHOOK_CONTENT_TYPE = 'text/plain; charset=utf-8';
