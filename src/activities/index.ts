import type { Config } from '../config';
import type { Db } from '../db/knex';
import type { VaultKey } from '../domain/vault-cipher';
import type { Logger } from '../logger';
import type { ProcessorSettings } from '../processors/settings';
import { createChargeReconciliationActivities } from './charge-reconciliation';
import { createMailer, type Mailer } from './mailer';
import { createOrderActivities } from './orders';
import { createProcessorActivities } from './processor';
import { createRefundActivities } from './refunds';
import { createWebhookActivities, type WebhookActivityDeps } from './webhooks';

export interface ActivityDeps {
  db: Db;
  logger: Logger;
  vaultKeys: VaultKey[];
  environment: string;
  processors?: ProcessorSettings;
  mailer: Mailer;
  webhooks: WebhookActivityDeps['webhooks'];
}

/**
 * Every activity the worker registers, bound to its dependencies. Activities hold all side
 * effects (persistence, scoring, the processor, webhook HTTP, mail); they never import workflows.
 */
export function createActivities(deps: ActivityDeps) {
  const processor = createProcessorActivities(deps);
  return {
    ...createOrderActivities(deps),
    ...processor,
    ...createChargeReconciliationActivities(deps, processor),
    ...createRefundActivities(deps),
    ...createWebhookActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;

export type ActivityConfig = Pick<Config, 'environment' | 'vaultKeys' | 'mail' | 'webhooks'> &
  Partial<Pick<Config, 'processors'>>;

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
  });
}
