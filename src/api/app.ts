import Router from '@koa/router';
import type { Connection } from '@temporalio/client';
import Koa from 'koa';
import type { Config } from '../config';
import type { Db } from '../db/knex';
import type { Logger } from '../logger';
import { accessLog } from './middleware/access-log';
import { errorHandler } from './middleware/errors';
import { jsonBody } from './middleware/json-body';
import { requestId } from './middleware/request-id';
import { healthRoutes } from './routes/health';

export interface AppDeps {
  config: Pick<Config, 'environment'>;
  db: Db;
  temporal: Connection;
  logger: Logger;
}

/** Composes the middleware and the routers. Order matters: id, log, errors, body, routes. */
export function createApp(deps: AppDeps): Koa {
  const app = new Koa({ proxy: false });
  app.silent = true; // errors are logged by errorHandler, not by Koa's default stderr printer

  app.use(requestId());
  app.use(accessLog(deps.logger));
  app.use(errorHandler(deps.logger));
  app.use(jsonBody());

  // One root router, so a known path with the wrong method is a 405 whichever resource owns it.
  const root = new Router();
  for (const router of [healthRoutes({ db: deps.db, temporal: deps.temporal, environment: deps.config.environment })]) {
    root.use(router.routes());
  }
  app.use(root.routes());
  app.use(root.allowedMethods());
  return app;
}
