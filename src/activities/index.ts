import type { Db } from '../db/knex';
import type { Logger } from '../logger';

export interface ActivityDeps {
  db: Db;
  logger: Logger;
}

/**
 * Every activity the worker registers, bound to its dependencies. Activities hold all side
 * effects (persistence, scoring, the processor, webhook HTTP, mail); they never import workflows.
 */
export function createActivities(_deps: ActivityDeps) {
  return {};
}

export type Activities = ReturnType<typeof createActivities>;
