import { getMerchantSettings } from '../db/repositories/merchants';
import {
  claimFailureAlert,
  continueFailureStreak,
  disableFailingEndpoint,
  endFailureStreak,
  endIdleFailureStreak,
  releaseFailureAlert,
} from '../db/repositories/webhook-endpoint-streaks';
import type { EndpointRow } from '../db/repositories/webhook-endpoints';
import { businessMetrics } from '../observability/metrics';
import type { WebhookActivityDeps } from './webhook-attempt';

/**
 * An endpoint's failure streak (docs/webhooks.md): any 2xx ends it; failures start or continue
 * it, mail the technical contact once past the alert threshold and disable the endpoint past the
 * other. Times are the attempts' (workflow) times, so time-skipping tests run the real thresholds.
 */
export function createFailureStreak(deps: Pick<WebhookActivityDeps, 'db' | 'logger' | 'mailer' | 'webhooks'>) {
  const { db, logger } = deps;

  async function succeeded(endpointId: string): Promise<void> {
    await endFailureStreak(db, endpointId);
  }

  /** The endpoint failed at `at`: start or continue its streak; mail once past the alert threshold, disable past the other. */
  async function failed(endpoint: EndpointRow, at: Date): Promise<void> {
    const row = await continueFailureStreak(db, endpoint.id, at);
    if (!row?.failing_since) return;
    const failingFor = at.getTime() - row.failing_since.getTime();
    if (failingFor >= deps.webhooks.alertAfterMs && !row.alerted_at) {
      // One process wins the flag; the mail is sent once. A failed send releases it, for the next
      // failure to try again: it is not thrown, so a mail that never goes out cannot keep the
      // endpoint from being disabled below.
      if (await claimFailureAlert(db, row.id, at)) {
        try {
          await alertTechnicalContact(row, at);
        } catch (err) {
          await releaseFailureAlert(db, row.id);
          // The code only: the relay's text names the recipient.
          const { code, responseCode } = err as { code?: string; responseCode?: number };
          logger.error(
            { endpointId: row.id, code, responseCode },
            'webhook endpoint failing; the alert mail was not sent',
          );
        }
      }
    }
    if (failingFor >= deps.webhooks.disableAfterMs && row.enabled) {
      await disableFailingEndpoint(db, row.id, at, row.failing_since);
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

  /** The endpoint has nothing left to deliver: a streak still open lapses (endIdleFailureStreak). */
  async function idle(endpointId: string): Promise<void> {
    await endIdleFailureStreak(db, endpointId);
  }

  return { succeeded, failed, idle };
}
