import Router from '@koa/router';
import type { Client, Connection } from '@temporalio/client';
import Koa from 'koa';
import type { Config } from '../config';
import type { Db } from '../db/knex';
import { type Clock, systemClock } from '../domain/clock';
import { TokenBuckets } from '../domain/token-bucket';
import type { Logger } from '../logger';
import { payingMerchant } from './access';
import { accessLog } from './middleware/access-log';
import { bearerAuth, principalOf, requireScope } from './middleware/authenticate';
import { errorHandler } from './middleware/errors';
import { jsonBody } from './middleware/json-body';
import { rateLimit } from './middleware/rate-limit';
import { requestId } from './middleware/request-id';
import { OrderWorkflows } from './order-workflows';
import { apiKeyRoutes } from './routes/api-keys';
import { healthRoutes } from './routes/health';
import { merchantRoutes } from './routes/merchants';
import { oauthTokenRoutes } from './routes/oauth-token';
import { orderRoutes } from './routes/orders';
import { outcomeRoutes } from './routes/outcome';
import { tokenizeRoutes } from './routes/tokenize';

export interface AppDeps {
  config: Pick<Config, 'environment' | 'auth' | 'vaultKeys' | 'rateLimit'> & {
    temporal: Pick<Config['temporal'], 'taskQueue'>;
  };
  db: Db;
  temporal: Connection;
  /** The client the order endpoints use to reach the order workflows. */
  temporalClient: Client;
  logger: Logger;
  clock?: Clock;
}

/**
 * Composes the middleware and the routers. Order matters: id, log, errors, body, routes.
 * Public routes (health, token, tokenize with its own key) sit beside the bearer-authenticated
 * ones; one root router makes a known path with the wrong method a 405 whoever owns it.
 */
export function createApp(deps: AppDeps): Koa {
  const { config, db } = deps;
  const clock = deps.clock ?? systemClock;
  const app = new Koa({ proxy: false });
  app.silent = true; // errors are logged by errorHandler, not by Koa's default stderr printer

  app.use(requestId());
  app.use(accessLog(deps.logger));
  app.use(errorHandler(deps.logger));
  app.use(jsonBody({ formPaths: ['/v1/oauth2/token'] }));

  const buckets = new TokenBuckets(config.rateLimit.perSecond, config.rateLimit.burst);
  const tokenizeLimit = rateLimit(buckets, clock, (ctx) => ctx.state.merchantId as string);
  const paymentsLimit = rateLimit(buckets, clock, (ctx) => payingMerchant(principalOf(ctx.state)));

  const authenticated = new Router();
  authenticated.use(bearerAuth(db, clock));
  const payments = new Router();
  payments.use(requireScope('payments'));
  const workflows = new OrderWorkflows(deps.temporalClient, config.temporal.taskQueue);
  payments.use(outcomeRoutes({ db, rateLimit: paymentsLimit }).routes());
  payments.use(
    orderRoutes({
      db,
      clock,
      logger: deps.logger,
      environment: config.environment,
      vaultKeys: config.vaultKeys,
      workflows,
      rateLimit: paymentsLimit,
    }).routes(),
  );
  for (const router of [
    apiKeyRoutes({ db, clock, environment: config.environment, rotationGraceMs: config.auth.rotationGraceMs }),
    merchantRoutes({ db, clock }),
    payments,
  ]) {
    authenticated.use(router.routes());
  }

  const root = new Router();
  for (const router of [
    healthRoutes({ db, temporal: deps.temporal, environment: config.environment }),
    oauthTokenRoutes({ db, clock, ttlSeconds: config.auth.accessTokenTtlSeconds }),
    tokenizeRoutes({
      db,
      clock,
      environment: config.environment,
      vaultKeys: config.vaultKeys,
      rateLimit: tokenizeLimit,
    }),
    authenticated,
  ]) {
    root.use(router.routes());
  }
  app.use(root.routes());
  app.use(root.allowedMethods());
  return app;
}
