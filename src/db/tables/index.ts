import type { AccessTokensTable } from './access-tokens';
import type { ApiKeysTable } from './api-keys';
import type { ApiProcessesTable } from './api-processes';
import type { ApplicationsTable } from './applications';
import type { CardVaultTable } from './card-vault';
import type { ChargesTable } from './charges';
import type { DisputesTable } from './disputes';
import type { EventsTable } from './events';
import type { IdempotencyKeysTable } from './idempotency-keys';
import type { MerchantSettingsTable } from './merchant-settings';
import type { MerchantsTable } from './merchants';
import type { OrderTransitionsTable } from './order-transitions';
import type { OrdersTable } from './orders';
import type { PartnersTable } from './partners';
import type { RateLimitBucketsTable } from './rate-limit-buckets';
import type { RefundsTable } from './refunds';
import type { RescueReportRollupTable } from './rescue-report-rollup';
import type { SenseSessionsTable } from './sense-sessions';
import type { SenseSignalsTable } from './sense-signals';
import type { SiteWidgetSettingsTable } from './site-widget-settings';
import type { SitesTable } from './sites';
import type { TokenizationKeysTable } from './tokenization-keys';
import type { WebhookAttemptsTable } from './webhook-attempts';
import type { WebhookDeliveriesTable } from './webhook-deliveries';
import type { WebhookEndpointsTable } from './webhook-endpoints';
import type { WorkerHeartbeatsTable } from './worker-heartbeats';

/**
 * The tables knex knows the rows of (knex's Tables registry), every table of the migrations, so
 * `db('orders')` is typed: one file per table, its row as read and as written; a new table or
 * column goes in with its migration. A unit test (test/unit/typed-tables.test.ts) fails on a
 * migration's table missing here, or a repository naming a table that is not.
 */
declare module 'knex/types/tables' {
  interface Tables {
    access_tokens: AccessTokensTable;
    api_keys: ApiKeysTable;
    api_processes: ApiProcessesTable;
    applications: ApplicationsTable;
    card_vault: CardVaultTable;
    charges: ChargesTable;
    disputes: DisputesTable;
    events: EventsTable;
    idempotency_keys: IdempotencyKeysTable;
    merchant_settings: MerchantSettingsTable;
    merchants: MerchantsTable;
    order_transitions: OrderTransitionsTable;
    orders: OrdersTable;
    partners: PartnersTable;
    rate_limit_buckets: RateLimitBucketsTable;
    refunds: RefundsTable;
    rescue_report_rollup: RescueReportRollupTable;
    sense_sessions: SenseSessionsTable;
    sense_signals: SenseSignalsTable;
    site_widget_settings: SiteWidgetSettingsTable;
    sites: SitesTable;
    tokenization_keys: TokenizationKeysTable;
    webhook_attempts: WebhookAttemptsTable;
    webhook_deliveries: WebhookDeliveriesTable;
    webhook_endpoints: WebhookEndpointsTable;
    worker_heartbeats: WorkerHeartbeatsTable;
  }
}

export type { AccessTokenRecord } from './access-tokens';
export type { ApiKeyRecord } from './api-keys';
export type { ApiProcessRecord } from './api-processes';
export type { ApplicationRecord } from './applications';
export type { CardVaultRecord } from './card-vault';
export type { ChargeRecord } from './charges';
export type { DisputeRecord } from './disputes';
export type { EventRecord } from './events';
export type { IdempotencyKeyRecord } from './idempotency-keys';
export type { MerchantSettingsRecord } from './merchant-settings';
export type { MerchantRecord } from './merchants';
export type { OrderTransitionRecord } from './order-transitions';
export type { OrderRecord } from './orders';
export type { PartnerRecord } from './partners';
export type { RateLimitBucketRecord } from './rate-limit-buckets';
export type { RefundRecord } from './refunds';
export type { RescueReportRollupRecord } from './rescue-report-rollup';
export type { SenseSessionRecord } from './sense-sessions';
export type { SenseSignalRecord } from './sense-signals';
export type { SiteWidgetSettingsRecord } from './site-widget-settings';
export type { SiteRecord } from './sites';
export type { TokenizationKeyRecord } from './tokenization-keys';
export type { WebhookAttemptRecord } from './webhook-attempts';
export type { WebhookDeliveryRecord } from './webhook-deliveries';
export type { WebhookEndpointRecord } from './webhook-endpoints';
export type { WorkerHeartbeatRecord } from './worker-heartbeats';
