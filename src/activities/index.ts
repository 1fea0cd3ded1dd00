import type { Db } from '../db/knex';
import type { VaultKey } from '../domain/vault-cipher';
import type { Logger } from '../logger';
import { createOrderActivities } from './orders';

export interface ActivityDeps {
  db: Db;
  logger: Logger;
  vaultKeys: VaultKey[];
  environment: string;
}

/**
 * Every activity the worker registers, bound to its dependencies. Activities hold all side
 * effects (persistence, scoring, the processor, webhook HTTP, mail); they never import workflows.
 */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createOrderActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
