import { randomUUID } from 'node:crypto';
import type { Config } from '../config';
import type { Db } from '../db/knex';
import type { AttemptRecord, ClaimedDelivery, EnvelopeSource } from '../db/repositories/webhook-due-deliveries';
import { type EndpointRow, signingSecretOf } from '../db/repositories/webhook-endpoints';
import type { VaultKey } from '../domain/vault-cipher';
import { WEBHOOK_CONTENT_TYPE, type WebhookEnvelope } from '../domain/webhooks/envelope';
import { DELIVERY_OFFSETS_MS } from '../domain/webhooks/retry-schedule';
import { signWebhook } from '../domain/webhooks/signature';
import type { Logger } from '../logger';
import { businessMetrics } from '../observability/metrics';
import type { Mailer } from './mailer';
import { postWebhook } from './webhook-post';

export interface WebhookActivityDeps {
  db: Db;
  logger: Logger;
  vaultKeys: VaultKey[];
  mailer: Mailer;
  webhooks: Omit<Config['webhooks'], 'workerConcurrency'>;
}

/** The interface's envelope; IdempotencyKey is the delivery id, the same on every retry and resend. */
function envelopeOf(row: EnvelopeSource, isResent: boolean): WebhookEnvelope {
  return {
    IdempotencyKey: row.delivery_id,
    Event: row.name,
    TimeStamp: row.occurred_at.toISOString(),
    EventData: row.data ?? null,
    Mid: row.merchant_id,
    Pid: row.partner_id,
    ExternalOrderId: row.external_order_id,
    OrderId: row.order_id,
    ConfirmationId: row.confirmation_id,
    IsTestMode: row.is_test_mode,
    IsResent: isResent,
  };
}

interface SentAttempt {
  statusCode: number | null;
  /** Why it failed (at most 500 characters); null when it succeeded. */
  error: string | null;
  succeeded: boolean;
  latencyMs: number;
}

/**
 * One signed HTTPS POST of an envelope to an endpoint: the status (or the error), the attempt
 * metric, and one log line per failed attempt (docs/runbook.md). `refused` is the destination
 * check's answer for the endpoint's URL, made by the caller (once per batch to one endpoint).
 */
async function sendEnvelope(
  deps: Pick<WebhookActivityDeps, 'logger' | 'vaultKeys' | 'webhooks'>,
  input: {
    deliveryId: string;
    attempt: number;
    envelope: WebhookEnvelope;
    endpoint: EndpointRow;
    testEvent: boolean;
    refused: string | undefined;
  },
): Promise<SentAttempt> {
  const { endpoint, refused } = input;
  const body = JSON.stringify(input.envelope);
  const url = new URL(endpoint.url);
  const signedAt = new Date();
  const headers = signWebhook({
    body,
    // During a rotation, the old secret until the new one's activatesAt, then the new (docs/webhooks.md).
    secretBase64: signingSecretOf(endpoint, deps.vaultKeys, signedAt),
    host: url.host, // with its port where not the scheme's default, as URL.host gives it
    nonce: randomUUID(),
    date: signedAt.toUTCString(),
  });
  // A test event (POST /v1/webhooks/{id}/test): the envelope is the interface's, so a header says so.
  if (input.testEvent) headers['x-fc-test'] = 'true';
  const started = Date.now();
  let statusCode: number | null = null;
  let error: string | null = null;
  try {
    if (refused) throw new Error(`destination refused: ${refused}`);
    statusCode = await postWebhook(url, {
      headers: { ...headers, 'content-type': WEBHOOK_CONTENT_TYPE, 'user-agent': 'PaymentRescue-Webhooks/1' },
      body,
      timeoutMs: deps.webhooks.timeoutMs,
      privateNetworks: deps.webhooks.privateNetworks,
    });
  } catch (err) {
    error =
      err instanceof Error ? `${err.name}: ${(err.cause as Error | undefined)?.message ?? err.message}` : String(err);
  }
  const succeeded = statusCode !== null && statusCode >= 200 && statusCode < 300;
  businessMetrics.webhookAttempt(refused ? 'refused' : succeeded ? 'delivered' : 'failed', statusCode ?? undefined);
  if (!succeeded) {
    // One line per failed attempt, for the operator following an endpoint (docs/runbook.md).
    deps.logger.warn(
      {
        deliveryId: input.deliveryId,
        endpointId: endpoint.id,
        merchantId: endpoint.merchant_id,
        attempt: input.attempt,
        statusCode,
        error: error?.slice(0, 200),
      },
      'webhook attempt failed',
    );
  }
  return {
    statusCode,
    error: error?.slice(0, 500) ?? (succeeded ? null : `HTTP ${statusCode}`),
    succeeded,
    latencyMs: Date.now() - started,
  };
}

/**
 * One attempt of a claimed delivery: the attempt number and IsResent from its round, the POST,
 * and its next due time on its own schedule (null once delivered or when the schedule is over).
 */
export async function attemptClaimed(
  deps: Pick<WebhookActivityDeps, 'logger' | 'vaultKeys' | 'webhooks'>,
  endpoint: EndpointRow,
  row: ClaimedDelivery,
  at: Date,
  refused: string | undefined,
): Promise<AttemptRecord> {
  const attempt = row.round_attempts + 1;
  const isResent = row.resend || attempt > 1;
  const sent = await sendEnvelope(deps, {
    deliveryId: row.delivery_id,
    attempt,
    envelope: envelopeOf(row, isResent),
    endpoint,
    testEvent: row.is_test_event === true,
    refused,
  });
  const roundStartedAt = row.round_started_at ?? at;
  const offset = DELIVERY_OFFSETS_MS[attempt];
  const nextAttemptAt =
    sent.succeeded || offset === undefined ? null : new Date(Math.max(roundStartedAt.getTime() + offset, at.getTime()));
  if (!sent.succeeded && nextAttemptAt === null) businessMetrics.webhookDeliveryFailed();
  return {
    deliveryId: row.delivery_id,
    attempt,
    isResent,
    startedAt: at,
    roundStartedAt,
    nextAttemptAt,
    ...sent,
  };
}
