import { randomUUID } from 'node:crypto';
import { derivedUuid } from '../../src/domain/ids';
import { WEBHOOK_CONTENT_TYPE, type WebhookEnvelope } from '../../src/domain/webhooks/envelope';
import { signWebhook } from '../../src/domain/webhooks/signature';
import type { ListedEvent } from './events-api';

/** The envelope a real delivery of `event` would carry; IdempotencyKey is fixed per event for listen. */
export function envelopeOf(event: ListedEvent): WebhookEnvelope {
  return {
    IdempotencyKey: derivedUuid(event.EventId, 'listen'),
    Event: event.Event,
    TimeStamp: event.TimeStamp,
    EventData: event.EventData,
    Mid: event.Mid,
    Pid: event.Pid,
    ExternalOrderId: event.ExternalOrderId,
    OrderId: event.OrderId,
    ConfirmationId: event.ConfirmationId,
    IsTestMode: event.IsTestMode,
    IsResent: false,
  };
}

/**
 * POSTs one event to the local URL exactly as a real delivery is made: the same body, content
 * type and x-fc-* headers, signed with the session's secret for the local URL's host. Answers the
 * HTTP status, or the error's text. One attempt: listen does not retry (resend with the API).
 */
export async function forwardEvent(
  target: URL,
  secret: string,
  event: ListedEvent,
  timeoutMs = 10_000,
): Promise<{ status: number } | { error: string }> {
  const body = JSON.stringify(envelopeOf(event));
  const headers = signWebhook({
    body,
    secretBase64: secret,
    host: target.host,
    nonce: randomUUID(),
    date: new Date().toUTCString(),
  });
  try {
    const res = await fetch(target, {
      method: 'POST',
      headers: { ...headers, 'content-type': WEBHOOK_CONTENT_TYPE, 'user-agent': 'PaymentRescue-Listen/1' },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.arrayBuffer().catch(() => undefined);
    return { status: res.status };
  } catch (err) {
    const cause = (err as Error & { cause?: Error }).cause;
    return { error: cause?.message ?? (err as Error).message };
  }
}
