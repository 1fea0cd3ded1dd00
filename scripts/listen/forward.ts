import { randomUUID } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { rootCertificates } from 'node:tls';
import { derivedUuid } from '../../src/domain/ids';
import { WEBHOOK_CONTENT_TYPE, type WebhookEnvelope } from '../../src/domain/webhooks/envelope';
import { signWebhook } from '../../src/domain/webhooks/signature';
import { TEST_EVENT_HEADER } from '../../src/domain/webhooks/test-events';
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
 * How listen trusts a local HTTPS receiver: `ca`, the PEM of a certificate (or CA) to trust
 * besides Node's own (`--ca <file>`); `skipVerify`, no verification at all (`--skip-verify`,
 * accepted for loopback URLs only, where no one sits between listen and the receiver).
 */
export interface ForwardTls {
  ca?: string;
  skipVerify?: boolean;
}

/**
 * POSTs one event to the local URL exactly as a real delivery is made: the same body, content
 * type and x-fc-* headers (and `x-fc-test: true` for a test event), signed with the session's
 * secret for the local URL's host. Answers the HTTP status, or the error's text. One attempt:
 * listen does not retry (resend with the API). Redirects are not followed, as in delivery.
 */
export async function forwardEvent(
  target: URL,
  secret: string,
  event: ListedEvent,
  timeoutMs = 10_000,
  tls: ForwardTls = {},
): Promise<{ status: number } | { error: string }> {
  const body = JSON.stringify(envelopeOf(event));
  const headers: Record<string, string> = {
    ...signWebhook({
      body,
      secretBase64: secret,
      host: target.host,
      nonce: randomUUID(),
      date: new Date().toUTCString(),
    }),
    'content-type': WEBHOOK_CONTENT_TYPE,
    'user-agent': 'PaymentRescue-Listen/1',
    'content-length': String(Buffer.byteLength(body)),
  };
  if (event.IsTestEvent) headers[TEST_EVENT_HEADER] = 'true';
  try {
    return { status: await post(target, headers, body, timeoutMs, tls) };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

/** One POST over node:http(s) (fetch cannot be given a CA per request): the status code. */
function post(target: URL, headers: Record<string, string>, body: string, timeoutMs: number, tls: ForwardTls) {
  return new Promise<number>((resolve, reject) => {
    const options =
      target.protocol === 'https:'
        ? {
            method: 'POST',
            headers,
            ...(tls.ca ? { ca: [...rootCertificates, tls.ca] } : {}),
            rejectUnauthorized: !tls.skipVerify,
          }
        : { method: 'POST', headers };
    const req = (target.protocol === 'https:' ? https : http).request(target, options, (res) => {
      res.resume(); // only the status counts
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    // A deadline for the whole exchange (the socket `timeout` option is only an idle timeout).
    const deadline = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    req.on('close', () => clearTimeout(deadline));
    req.on('error', reject);
    req.end(body);
  });
}
