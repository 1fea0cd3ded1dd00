import type { Client, Connection } from '@temporalio/client';
import Koa from 'koa';
import type { Config } from '../config';
import type { CacheNotifications } from '../db/cache-notifications';
import type { Db } from '../db/knex';
import { type Clock, systemClock } from '../domain/clock';
import { DEFAULT_NETWORK_REGION } from '../domain/network-rules';
import type { Logger } from '../logger';
import { AcceptedRescues } from '../orders/accepted-rescues';
import { OrderClient } from '../orders/order-client';
import { guardRoutes } from './guard';
import { apiLimits } from './limits';
import { accessLog } from './middleware/access-log';
import { bearerAuth, requireScope } from './middleware/authenticate';
import { canonicalPath } from './middleware/canonical-path';
import { bearerOrDashboardLink } from './middleware/dashboard-link';
import { databaseOutageAs503 } from './middleware/database-unavailable';
import { errorHandler } from './middleware/errors';
import { InFlight } from './middleware/in-flight';
import { screenRouteInputs } from './middleware/input-hygiene';
import { jsonBody } from './middleware/json-body';
import { requestMetrics } from './middleware/metrics';
import { ownChangesHeard } from './middleware/own-changes-heard';
import { requestId } from './middleware/request-id';
import { traceRoute } from './middleware/trace-route';
import { apiRouter } from './router';
import { adminRoutes } from './routes/admin';
import { adminPartnerRoutes } from './routes/admin-partners';
import { adminReportRoutes } from './routes/admin-reports';
import { apiKeyRoutes } from './routes/api-keys';
import { applicationRoutes } from './routes/applications';
import { challengeRoutes } from './routes/challenges';
import { dashboardRoutes } from './routes/dashboard';
import { dashboardLinkRoutes } from './routes/dashboard-links';
import { eventRoutes } from './routes/events';
import { healthRoutes } from './routes/health';
import { merchantRoutes } from './routes/merchants';
import { oauthTokenRoutes } from './routes/oauth-token';
import { orderSearchRoutes } from './routes/order-search';
import { orderWebhookDeliveryRoutes } from './routes/order-webhook-deliveries';
import { orderRoutes } from './routes/orders';
import { outcomeRoutes } from './routes/outcome';
import { referenceRoutes } from './routes/reference';
import { rescueReportRoutes } from './routes/rescue-reports';
import { siteWidgetRoutes } from './routes/site-widget';
import { tokenizationKeyRoutes } from './routes/tokenization-keys';
import { tokenizeRoutes } from './routes/tokenize';
import { webhookRoutes } from './routes/webhooks';
import { WIDGET_API_PATHS, widgetRoutes } from './routes/widget';
import { widgetScriptRoutes } from './routes/widget-script';
import { SettingsCache } from './settings-cache';
import { TokenCache } from './token-cache';
import { widgetBundle } from './widget-bundle';

export interface AppDeps {
  config: Pick<
    Config,
    | 'environment'
    | 'auth'
    | 'vaultKeys'
    | 'rateLimit'
    | 'widget'
    | 'adminToken'
    | 'webhooks'
    | 'publicBaseUrl'
    | 'dashboard'
  > & {
    temporal: Pick<Config['temporal'], 'taskQueue' | 'webhookTaskQueue'> &
      Partial<Pick<Config['temporal'], 'callDeadlineMs' | 'lowerAcceptedRescuePriority' | 'workerDeployment'>>;
  } & Partial<Pick<Config, 'readyPollerMaxAgeMs' | 'readyWorkerHeartbeatMaxAgeMs' | 'networkRegion' | 'database'>>;
  db: Db;
  temporal: Connection;
  /** The client the order endpoints use to reach the order workflows. */
  temporalClient: Client;
  logger: Logger;
  clock?: Clock;
  /** Postgres's word that cached rows changed (src/db/cache-notifications.ts); without it nothing is cached. */
  cacheNotifications?: CacheNotifications;
}

/**
 * Composes the middleware and the routers. Order matters: id, log, errors, body, routes.
 * Public routes (health, token, tokenize with its own key) sit beside the bearer-authenticated
 * ones; one root router makes a known path with the wrong method a 405 whoever owns it.
 */
export type RescueApp = Koa & { inFlight: InFlight };

export function createApp(deps: AppDeps): RescueApp {
  const { config, db } = deps;
  const clock = deps.clock ?? systemClock;
  // ctx.ip (the per-address limits' key): the client the trusted proxies saw, else the TCP peer.
  const app = new Koa({ proxy: config.rateLimit.trustedProxyHops > 0, maxIpsCount: config.rateLimit.trustedProxyHops });
  app.silent = true; // errors are logged by errorHandler, not by Koa's default stderr printer
  const inFlight = new InFlight();
  app.use(inFlight.middleware());
  app.use(canonicalPath()); // `/v1//outcome` (the vendor's Node sample) and `/v1/outcome/` are `/v1/outcome`
  app.use(requestMetrics()); // by route pattern and final status (docs/deployment.md#metrics)
  app.use(traceRoute()); // the request's span named by its route pattern (docs/deployment.md#traces)
  app.use(requestId());
  app.use(accessLog(deps.logger));
  app.use(errorHandler(deps.logger));
  app.use(databaseOutageAs503(deps.logger)); // Postgres down or frozen: 503 503001, never 500
  app.use(jsonBody({ formPaths: ['/v1/oauth2/token'], ownParserPaths: WIDGET_API_PATHS }));

  // Rate limits shared by every API process through Postgres (docs/rate-limits.md).
  const limits = apiLimits(db, deps.logger, clock, config);
  app.use(limits.failures);

  const workflows = new OrderClient(deps.temporalClient, config.temporal.taskQueue, {
    deadlineMs: config.temporal.callDeadlineMs,
  });
  const bearer = bearerAuth(new TokenCache(db, deps.cacheNotifications), clock);
  const settings = new SettingsCache(db, deps.cacheNotifications);
  const heard = ownChangesHeard(deps.cacheNotifications); // routes that change cached rows
  const networkRegion = config.networkRegion ?? DEFAULT_NETWORK_REGION; // the networks' rules applied
  // The dashboard's reads also take its link token (GET only, one merchant): docs/dashboard.md.
  const reader = bearerOrDashboardLink(db, bearer, config.dashboard.linkSecret, clock);
  const root = apiRouter();
  for (const router of [
    healthRoutes({
      db,
      temporal: deps.temporal,
      environment: config.environment,
      rateLimit: limits.health,
      namespace: deps.temporalClient.options.namespace,
      taskQueue: config.temporal.taskQueue,
      pollerMaxAgeMs: config.readyPollerMaxAgeMs,
      heartbeatMaxAgeMs: config.readyWorkerHeartbeatMaxAgeMs,
      buildId: config.temporal.workerDeployment?.buildId,
    }),
    oauthTokenRoutes({ db, clock, ttlSeconds: config.auth.accessTokenTtlSeconds, perClient: limits.tokenPerClient }),
    adminRoutes({ db, clock, environment: config.environment, adminToken: config.adminToken }),
    adminPartnerRoutes({ db, environment: config.environment, adminToken: config.adminToken }),
    adminReportRoutes({ db, clock, adminToken: config.adminToken }),
    challengeRoutes({ db, workflows, rateLimit: limits.tokenize }),
    tokenizeRoutes({
      db,
      clock,
      environment: config.environment,
      vaultKeys: config.vaultKeys,
      rateLimit: limits.tokenize,
      bearer,
    }),
    widgetScriptRoutes({ bundle: widgetBundle(config.widget.apiBase) }),
    referenceRoutes(), // GET /v1/openapi.json and /docs (no authentication)
    dashboardRoutes(), // the dashboard's static files; its data comes from the API below
    widgetRoutes({ db, clock, siteRateLimit: limits.widgetSite, senseKeyRateLimit: limits.senseKey }),
    // Bearer-authenticated resources, each with the scope it needs (docs/authentication.md).
    guardRoutes(
      apiKeyRoutes({ db, clock, environment: config.environment, rotationGraceMs: config.auth.rotationGraceMs }),
      bearer,
      requireScope('api_keys'),
      heard,
    ),
    guardRoutes(
      tokenizationKeyRoutes({ db, clock, environment: config.environment }),
      bearer,
      requireScope('api_keys'),
    ),
    guardRoutes(merchantRoutes({ db, clock }), bearer, requireScope('settings'), heard),
    guardRoutes(siteWidgetRoutes({ db, clock, widgetUrl: config.widget.url }), bearer, requireScope('settings'), heard),
    guardRoutes(
      webhookRoutes({
        db,
        clock,
        vaultKeys: config.vaultKeys,
        privateNetworks: config.webhooks.privateNetworks,
      }),
      bearer,
      requireScope('webhooks'),
    ),
    guardRoutes(
      eventRoutes({ db, client: deps.temporalClient, taskQueue: config.temporal.webhookTaskQueue }),
      bearer,
      requireScope('webhooks'),
    ),
    guardRoutes(applicationRoutes({ db, clock, environment: config.environment }), bearer, requireScope('settings')),
    guardRoutes(
      outcomeRoutes({ db, clock, rateLimit: limits.payments, networkRegion }),
      bearer,
      requireScope('payments'),
    ),
    guardRoutes(orderSearchRoutes({ db, rateLimit: limits.payments }), reader, requireScope('payments')),
    guardRoutes(rescueReportRoutes({ db, clock, rateLimit: limits.payments }), reader, requireScope('payments')),
    guardRoutes(orderWebhookDeliveryRoutes({ db, rateLimit: limits.payments }), reader, requireScope('payments')),
    guardRoutes(
      dashboardLinkRoutes({ clock, linkSecret: config.dashboard.linkSecret, publicBaseUrl: config.publicBaseUrl }),
      bearer,
      requireScope('payments'),
    ),
    guardRoutes(
      orderRoutes({
        db,
        clock,
        logger: deps.logger,
        environment: config.environment,
        vaultKeys: config.vaultKeys,
        workflows,
        acceptedRescues: new AcceptedRescues(
          deps.temporalClient,
          deps.logger,
          config.temporal.lowerAcceptedRescuePriority ?? true,
        ),
        rateLimit: limits.payments,
        evaluateRateLimit: limits.paymentsWithClaim,
        networkRegion,
        settings,
      }),
      reader, // a link reaches only the lookup: it is refused on every other method
      requireScope('payments'),
    ),
  ]) {
    root.use(router.routes());
  }
  // Control characters, unpaired surrogates and card numbers in free text: 400 before any route acts.
  screenRouteInputs(root, { oauthPaths: ['/v1/oauth2/token'] });
  app.use(root.routes());
  app.use(root.allowedMethods());
  return Object.assign(app, { inFlight });
}
