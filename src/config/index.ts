import { z } from 'zod';
import { type ProcessorSettings, processorsEnv, processorsSettings } from '../processors/settings';
import { type DashboardConfig, dashboardEnv, dashboardSettings } from './dashboard';
import { type DatabaseConfig, databaseEnv, databaseSettings } from './database';
import { ConfigError } from './env';
import { type HttpConfig, httpEnv, httpSettings } from './http';
import { type MailConfig, mailEnv, mailSettings } from './mail';
import { type SecurityConfig, securityEnv, securitySettings } from './security';
import { type ServiceConfig, serviceEnv, serviceSettings } from './service';
import { type TemporalConfig, temporalEnv, temporalSettings } from './temporal';
import { type TracingConfig, tracingEnv, tracingSettings } from './tracing';
import { type WebhooksConfig, webhooksEnv, webhooksSettings } from './webhooks';
import { type WidgetSettings, widgetEnv, widgetSettings } from './widget';

/**
 * The one typed configuration of the service, read from environment variables and validated at
 * start. Every variable is documented in README.md ("Configuration"); a bad value stops start-up
 * with a message naming the variable. Each concern's variables live in a file of their own here.
 */

export { ConfigError } from './env';
export type { Environment } from './service';
export type { TemporalSecurity } from './temporal';
export type { TracingConfig } from './tracing';

const schema = z.object({
  ...serviceEnv,
  ...databaseEnv,
  ...temporalEnv,
  ...securityEnv,
  ...httpEnv,
  ...widgetEnv,
  ...mailEnv,
  ...webhooksEnv,
  ...processorsEnv,
  ...tracingEnv,
  ...dashboardEnv,
});

/** Every variable the configuration reads (README's configuration table documents each). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(schema.shape);

export interface Config extends ServiceConfig, SecurityConfig, HttpConfig {
  database: DatabaseConfig;
  temporal: TemporalConfig;
  widget: WidgetSettings;
  mail: MailConfig;
  webhooks: WebhooksConfig;
  /** Processor credentials (src/processors/settings.ts). */
  processors: ProcessorSettings;
  /** OpenTelemetry traces (src/observability/tracing.ts); off without an OTLP endpoint. */
  tracing: TracingConfig;
  /** The merchant dashboard's signed links (docs/dashboard.md). */
  dashboard: DashboardConfig;
}

/** Reads and validates the configuration; throws ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const e = parsed.data;
  const service = serviceSettings(e);
  // Checked in this order so the first of several cross-variable problems reported stays the same.
  const security = securitySettings(e, service.environment);
  const temporal = temporalSettings(e);
  return {
    ...service,
    ...security,
    ...httpSettings(e),
    database: databaseSettings(e),
    temporal,
    widget: widgetSettings(e, service.publicBaseUrl),
    mail: mailSettings(e),
    webhooks: webhooksSettings(e, service.environment),
    processors: processorsSettings(e),
    tracing: tracingSettings(e),
    dashboard: dashboardSettings(e, service.environment),
  };
}

/**
 * Postgres's settings alone, for a process that needs nothing else (the migration Job, which is
 * given no other secret: docs/deployment.md, "Helm").
 */
export function loadDatabaseConfig(env: NodeJS.ProcessEnv = process.env): DatabaseConfig {
  const parsed = z.object(databaseEnv).safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  return databaseSettings(parsed.data);
}

/** For process entries: the configuration, or a message naming every bad variable and exit 1. */
export function loadConfigOrExit(): Config {
  return orExit(loadConfig);
}

/** What `load` reads, or a message naming every bad variable and exit 1. */
export function orExit<T>(load: () => T): T {
  try {
    return load();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}
