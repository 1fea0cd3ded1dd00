import type { Knex } from 'knex';
import * as identities from './20261121000000_identities';
import * as accessSettingsVault from './20261121010000_access_settings_vault';
import * as orders from './20261121020000_orders';
import * as widget from './20261121030000_widget';
import * as webhooks from './20261121040000_webhooks';
import * as housekeeping from './20261121050000_housekeeping';
import * as refundLedger from './20261122010000_refund_ledger';
import * as webhookSlots from './20261122020000_webhook_slots';
import * as edgeResilience from './20261122030000_edge_resilience';
import * as orderSessionKeyIndex from './20261122050000_order_session_key_index';
import * as webhooksForDevelopers from './20261122070000_webhooks_for_developers';
import * as processorSetting from './20261123010000_processor_setting';
import * as onboarding from './20261123020000_onboarding';
import * as endpointDelivery from './20261123030000_endpoint_delivery';
import * as workerHeartbeats from './20261123040000_worker_heartbeats';
import * as chargeOutcomeUnknown from './20261125010000_charge_outcome_unknown';
import * as dropPerDeliveryWebhooks from './20261126030000_drop_per_delivery_webhooks';
import * as orderSearchIndex from './20261127010000_order_search_index';
import * as chargesLedger from './20261127020000_charges_ledger';
import * as chargesCardBudget from './20261128010000_charges_card_budget';
import * as cacheNotifications from './20261129010000_cache_notifications';
import * as rescueReports from './20261129020000_rescue_reports';
import * as rescueReportRollup from './20261129030000_rescue_report_rollup';
import * as eventsPartnerIndex from './20261130010000_events_partner_index';
import * as tokenNotifyOnChange from './20261130020000_token_notify_on_change';
import * as cardTokensPerTokenization from './20261130030000_card_tokens_per_tokenization';
import * as rollupSkipsRetries from './20261130040000_rollup_skips_retries';

/**
 * Every migration, in order. Listed explicitly (not discovered on disk) so the same list works
 * under tsx, jest, compiled output and the Docker image.
 */
export const MIGRATIONS: ReadonlyArray<{ name: string; migration: Knex.Migration }> = [
  { name: '20261121000000_identities', migration: identities },
  { name: '20261121010000_access_settings_vault', migration: accessSettingsVault },
  { name: '20261121020000_orders', migration: orders },
  { name: '20261121030000_widget', migration: widget },
  { name: '20261121040000_webhooks', migration: webhooks },
  { name: '20261121050000_housekeeping', migration: housekeeping },
  { name: '20261122010000_refund_ledger', migration: refundLedger },
  { name: '20261122020000_webhook_slots', migration: webhookSlots },
  { name: '20261122030000_edge_resilience', migration: edgeResilience },
  { name: '20261122050000_order_session_key_index', migration: orderSessionKeyIndex },
  { name: '20261122070000_webhooks_for_developers', migration: webhooksForDevelopers },
  { name: '20261123010000_processor_setting', migration: processorSetting },
  { name: '20261123020000_onboarding', migration: onboarding },
  { name: '20261123030000_endpoint_delivery', migration: endpointDelivery },
  { name: '20261123040000_worker_heartbeats', migration: workerHeartbeats },
  { name: '20261125010000_charge_outcome_unknown', migration: chargeOutcomeUnknown },
  { name: '20261126030000_drop_per_delivery_webhooks', migration: dropPerDeliveryWebhooks },
  { name: '20261127010000_order_search_index', migration: orderSearchIndex },
  { name: '20261127020000_charges_ledger', migration: chargesLedger },
  { name: '20261128010000_charges_card_budget', migration: chargesCardBudget },
  { name: '20261129010000_cache_notifications', migration: cacheNotifications },
  { name: '20261129020000_rescue_reports', migration: rescueReports },
  { name: '20261129030000_rescue_report_rollup', migration: rescueReportRollup },
  { name: '20261130010000_events_partner_index', migration: eventsPartnerIndex },
  { name: '20261130020000_token_notify_on_change', migration: tokenNotifyOnChange },
  { name: '20261130030000_card_tokens_per_tokenization', migration: cardTokensPerTokenization },
  { name: '20261130040000_rollup_skips_retries', migration: rollupSkipsRetries },
];
