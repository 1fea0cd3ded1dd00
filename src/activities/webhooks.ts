import { randomUUID } from 'node:crypto';
import type { Config } from '../config';
import type { Db } from '../db/knex';
import { getMerchantSettings } from '../db/repositories/merchants';
import { acquireDeliverySlot, recordAttempt, releaseDeliverySlot } from '../db/repositories/webhook-deliveries';
import { type EndpointRow, signingSecretOf } from '../db/repositories/webhook-endpoints';
import type { VaultKey } from '../domain/vault-cipher';
import { WEBHOOK_CONTENT_TYPE, type WebhookEnvelope } from '../domain/webhooks/envelope';
import { signWebhook } from '../domain/webhooks/signature';
import type { Logger } from '../logger';
import { businessMetrics } from '../observability/metrics';
import { destinationProblem } from './destination-check';
import type { Mailer } from './mailer';
import { postWebhook } from './webhook-post';

export interface WebhookActivityDeps {
  db: Db;
  logger: Logger;
  vaultKeys: VaultKey[];
  mailer: Mailer;
  webhooks: Omit<Config['webhooks'], 'workerConcurrency'>;
}

export interface AttemptInput {
  deliveryId: string;
  /** The delivery workflow's id: it holds the attempt slot, and is signalled when it waits for one. */
  holder: string;
  attempt: number;
  isResent: boolean;
  /** Workflow time of the attempt: failure streaks are measured in it (time-skipping tests too). */
  at: string;
  /** When the next attempt will be made if this one fails; null when this is the last. */
  nextAttemptAt: string | null;
}

export type AttemptResult = {
  /** `busy`: no slot free for the endpoint or its merchant; nothing was sent, the delivery waits for a signal. */
  outcome: 'delivered' | 'failed' | 'stopped' | 'busy';
  statusCode: number | null;
  /** Workflow ids of waiting deliveries to signal: this attempt freed a slot they can use. */
  wake?: string[];
};

/** Activities of webhook delivery: one HTTPS attempt, and the endpoint's failure bookkeeping. */
export function createWebhookActivities(deps: WebhookActivityDeps) {
  const { db, logger } = deps;

  async function envelopeFor(deliveryId: string, isResent: boolean) {
    const row = await db('webhook_deliveries as d')
      .join('events as e', 'e.id', 'd.event_id')
      .join('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
      .where('d.id', deliveryId)
      .first('d.id as delivery_id', 'e.*', 'w.id as endpoint_id');
    if (!row) return undefined;
    const envelope: WebhookEnvelope = {
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
    const endpoint = (await db('webhook_endpoints').where({ id: row.endpoint_id }).first()) as EndpointRow;
    return { envelope, endpoint, testEvent: row.is_test_event === true };
  }

  /** The endpoint failed at `at`: start or continue its streak; mail once past the alert threshold, disable past the other. */
  async function failureStreak(endpoint: EndpointRow, at: Date): Promise<void> {
    const [row] = (await db('webhook_endpoints')
      .where({ id: endpoint.id })
      .update({ failing_since: db.raw('coalesce(failing_since, ?)', [at]) })
      .returning('*')) as EndpointRow[];
    if (!row?.failing_since) return;
    const failingFor = at.getTime() - row.failing_since.getTime();
    if (failingFor >= deps.webhooks.alertAfterMs && !row.alerted_at) {
      // One process wins the flag; the mail is sent once. A failed send releases it for a retry.
      const won = await db('webhook_endpoints')
        .where({ id: row.id })
        .whereNull('alerted_at')
        .update({ alerted_at: at });
      if (won) {
        try {
          await alertTechnicalContact(row, at);
        } catch (err) {
          await db('webhook_endpoints').where({ id: row.id }).update({ alerted_at: null });
          throw err;
        }
      }
    }
    if (failingFor >= deps.webhooks.disableAfterMs && row.enabled) {
      await db('webhook_endpoints')
        .where({ id: row.id })
        .update({
          enabled: false,
          disabled_at: at,
          disabled_reason: `deliveries failing since ${row.failing_since.toISOString()}`,
        });
      logger.warn({ endpointId: row.id }, 'webhook endpoint disabled after failing for too long');
      businessMetrics.webhookEndpointDisabled();
    }
  }

  async function alertTechnicalContact(endpoint: EndpointRow, at: Date): Promise<void> {
    const contact = endpoint.merchant_id
      ? (await getMerchantSettings(db, endpoint.merchant_id)).technicalContactEmail
      : null;
    if (!contact) {
      logger.warn({ endpointId: endpoint.id }, 'webhook endpoint failing; no technical contact to mail');
      return;
    }
    const hours = Math.round((at.getTime() - (endpoint.failing_since as Date).getTime()) / 3_600_000);
    await deps.mailer.send({
      to: contact,
      subject: `Webhook deliveries to ${new URL(endpoint.url).host} have been failing for ${hours} hours`,
      text: [
        `Deliveries to your webhook endpoint ${endpoint.url} (id ${endpoint.id}) have failed since ${endpoint.failing_since?.toISOString()}.`,
        `If they keep failing, the endpoint will be disabled ${Math.round(deps.webhooks.disableAfterMs / 3_600_000)} hours after the first failure.`,
        'Fix the endpoint so it answers 2xx at once; events can be caught up with GET /v1/events?since=... and resent.',
      ].join('\n\n'),
    });
  }

  return {
    async attemptDelivery(input: AttemptInput): Promise<AttemptResult> {
      const loaded = await envelopeFor(input.deliveryId, input.isResent);
      // The relay creates the row before it starts this workflow: a missing row is not a reason to give up.
      if (!loaded) throw new Error(`delivery ${input.deliveryId} not found (yet)`);
      const { envelope, endpoint, testEvent } = loaded;
      const slot = {
        holder: input.holder,
        endpointId: endpoint.id,
        ownerKey: slotOwnerKey(endpoint),
        perEndpoint: deps.webhooks.maxInFlightPerEndpoint,
        perOwner: deps.webhooks.maxInFlightPerMerchant,
      };
      if (!endpoint.enabled) {
        await db('webhook_deliveries')
          .where({ id: input.deliveryId, status: 'pending' })
          .update({ status: 'stopped', next_attempt_at: null });
        await releaseDeliverySlot(db, slot); // no longer waiting for one
        return { outcome: 'stopped', statusCode: null };
      }
      // The slot lapses by itself if this worker dies: the whole exchange, plus time for the bookkeeping.
      if (!(await acquireDeliverySlot(db, { ...slot, ttlMs: deps.webhooks.timeoutMs + 60_000 }))) {
        return { outcome: 'busy', statusCode: null };
      }
      let result: AttemptResult;
      let wake: string[] = [];
      try {
        result = await attemptWithSlot(input, envelope, endpoint, testEvent);
      } finally {
        // On success and on error alike; if even this fails, the slot expires by itself.
        wake = await releaseDeliverySlot(db, slot).catch((err: unknown) => {
          logger.warn({ err, deliveryId: input.deliveryId }, 'could not release a webhook attempt slot');
          return [];
        });
      }
      return { ...result, wake };
    },
  };

  async function attemptWithSlot(
    input: AttemptInput,
    envelope: WebhookEnvelope,
    endpoint: EndpointRow,
    testEvent = false,
  ): Promise<AttemptResult> {
    const body = JSON.stringify(envelope);
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
    if (testEvent) headers['x-fc-test'] = 'true';
    const startedAt = new Date(input.at); // workflow time: the log shows the schedule as run
    const started = Date.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    const refused = await destinationProblem(url, deps.webhooks.allowPrivateNetworks);
    try {
      if (refused) throw new Error(`destination refused: ${refused}`);
      statusCode = await postWebhook(url, {
        headers: { ...headers, 'content-type': WEBHOOK_CONTENT_TYPE, 'user-agent': 'PaymentRescue-Webhooks/1' },
        body,
        timeoutMs: deps.webhooks.timeoutMs,
        allowPrivateNetworks: deps.webhooks.allowPrivateNetworks,
      });
    } catch (err) {
      error =
        err instanceof Error ? `${err.name}: ${(err.cause as Error | undefined)?.message ?? err.message}` : String(err);
    }
    const succeeded = statusCode !== null && statusCode >= 200 && statusCode < 300;
    businessMetrics.webhookAttempt(refused ? 'refused' : succeeded ? 'delivered' : 'failed', statusCode ?? undefined);
    if (!succeeded) {
      // One line per failed attempt, for the operator following an endpoint (docs/runbook.md).
      logger.warn(
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
    await recordAttempt(db, {
      deliveryId: input.deliveryId,
      attempt: input.attempt,
      isResent: input.isResent,
      startedAt,
      statusCode,
      error: error?.slice(0, 500) ?? (succeeded ? null : `HTTP ${statusCode}`),
      latencyMs: Date.now() - started,
      succeeded,
      nextAttemptAt: input.nextAttemptAt ? new Date(input.nextAttemptAt) : null,
    });
    if (succeeded) {
      await db('webhook_endpoints')
        .where({ id: endpoint.id })
        .whereNotNull('failing_since')
        .update({ failing_since: null, alerted_at: null });
      return { outcome: 'delivered', statusCode };
    }
    await failureStreak(endpoint, new Date(input.at));
    return { outcome: 'failed', statusCode };
  }
}

/** Whose attempts share the per-merchant limit: the endpoint's merchant, or for a partner's own endpoints the partner. */
function slotOwnerKey(endpoint: EndpointRow): string {
  return endpoint.merchant_id ? `merchant:${endpoint.merchant_id}` : `partner:${endpoint.partner_id}`;
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;
