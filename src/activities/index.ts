import type { Config } from '../config';
import type { Db } from '../db/knex';
import { DEFAULT_NETWORK_REGION, type NetworkRegion } from '../domain/network-rules';
import type { VaultKey } from '../domain/vault-cipher';
import type { Logger } from '../logger';
import type { ProcessorSettings } from '../processors/settings';
import { createChargeReconciliationActivities } from './charge-reconciliation';
import { createMailer, type Mailer } from './mailer';
import { createOrderActivities } from './orders';
import { createProcessorActivities } from './processor';
import { createRefundActivities } from './refunds';
import { createRetryBudgetActivities } from './retry-budget';
import { createWebhookActivities, type WebhookActivityDeps } from './webhooks';

export interface ActivityDeps {
  db: Db;
  logger: Logger;
  vaultKeys: VaultKey[];
  environment: string;
  processors?: ProcessorSettings;
  mailer: Mailer;
  webhooks: WebhookActivityDeps['webhooks'];
  /** The card networks' region (docs/network-rules.md); default US and Canada. */
  networkRegion?: NetworkRegion;
}

/**
 * Every activity the worker registers, bound to its dependencies. Activities hold all side
 * effects (persistence, scoring, the processor, webhook HTTP, mail); they never import workflows.
 */
export function createActivities(deps: ActivityDeps) {
  const processor = createProcessorActivities(deps);
  return {
    ...createOrderActivities(deps),
    ...createRetryBudgetActivities({ db: deps.db, networkRegion: deps.networkRegion ?? DEFAULT_NETWORK_REGION }),
    ...processor,
    ...createChargeReconciliationActivities(deps, processor),
    ...createRefundActivities(deps),
    ...createWebhookActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;

export type ActivityConfig = Pick<Config, 'environment' | 'vaultKeys' | 'mail' | 'webhooks'> &
  Partial<Pick<Config, 'processors' | 'networkRegion'>>;

/** The activities as the configuration wires them (the worker, and tests that run their own worker). */
export function activitiesFor(config: ActivityConfig, db: Db, logger: Logger): Activities {
  return createActivities({
    db,
    logger,
    vaultKeys: config.vaultKeys,
    environment: config.environment,
    ...(config.processors ? { processors: config.processors } : {}),
    mailer: createMailer(config.mail, logger),
    webhooks: config.webhooks,
    ...(config.networkRegion ? { networkRegion: config.networkRegion } : {}),
  });
}
