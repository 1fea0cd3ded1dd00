import path from 'node:path';
import { z } from 'zod';
import { parseVaultKeys, type VaultKey } from './domain/vault-cipher';

/**
 * The one typed configuration of the service, read from environment variables and validated at
 * start. Every variable is documented in README.md ("Configuration"); a bad value stops start-up
 * with a message naming the variable.
 */

const port = z.coerce.number().int().min(0).max(65535);
const optionalUrl = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

const schema = z.object({
  FC_ENVIRONMENT: z.enum(['sandbox', 'production']).default('sandbox'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: port.default(3000),
  PUBLIC_BASE_URL: optionalUrl.pipe(z.url().optional()),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().min(1).default('.data'),

  DATABASE_URL: optionalUrl.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
  ),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(1_000),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(15_000),
  EMBEDDED_POSTGRES_PORT: port.default(54320),

  TEMPORAL_ADDRESS: optionalUrl,
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('payment-rescue'),
  TEMPORAL_DEV_SERVER_PORT: port.default(7233),
  TEMPORAL_UI_PORT: port.default(8233),
  // Temporal's own environment-configuration names (docs/deployment.md, "Connecting to Temporal").
  TEMPORAL_API_KEY: optionalUrl,
  TEMPORAL_TLS: z.enum(['true', 'false']).optional(),
  TEMPORAL_TLS_CLIENT_CERT_PATH: optionalUrl,
  TEMPORAL_TLS_CLIENT_KEY_PATH: optionalUrl,
  TEMPORAL_TLS_SERVER_CA_CERT_PATH: optionalUrl,
  TEMPORAL_TLS_SERVER_NAME: optionalUrl,
  TEMPORAL_METRICS_BIND_ADDRESS: optionalUrl.pipe(
    z
      .string()
      .regex(/^[^\s:]+:\d{1,5}$/, 'must be host:port, e.g. 0.0.0.0:9464')
      .optional(),
  ),
  MIGRATE_ON_START: z.enum(['true', 'false']).default('false'),
  METRICS_PORT: port.optional(),
  METRICS_TOKEN: optionalUrl.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  READY_POLLER_MAX_AGE_MS: z.coerce.number().int().min(1_000).max(600_000).default(75_000),

  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(3600),
  API_KEY_ROTATION_GRACE_HOURS: z.coerce.number().min(0).max(720).default(24),
  CARD_VAULT_KEYS: optionalUrl.pipe(
    z
      .string()
      .refine((v) => {
        try {
          parseVaultKeys(v);
          return true;
        } catch {
          return false;
        }
      }, 'must be keyId:base64 pairs of 32-byte keys, comma-separated, the active key first')
      .optional(),
  ),
  SMTP_URL: optionalUrl.pipe(
    z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional(),
  ),
  MAIL_FROM: z.string().min(3).default('Payment Rescue <no-reply@payment-rescue.invalid>'),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(1000).max(60_000).default(10_000),
  WEBHOOK_ALERT_AFTER_HOURS: z.coerce
    .number()
    .min(0)
    .max(24 * 30)
    .default(72),
  WEBHOOK_DISABLE_AFTER_HOURS: z.coerce
    .number()
    .min(0)
    .max(24 * 30)
    .default(120),
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: z.enum(['true', 'false']).optional(),
  ADMIN_API_TOKEN: optionalUrl.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  RATE_LIMIT_PER_SECOND: z.coerce.number().min(0.1).max(100_000).default(25),
  WEBHOOK_TASK_QUEUE: optionalUrl,
  WEBHOOK_ENDPOINT_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(4),
  WEBHOOK_MERCHANT_CONCURRENCY: z.coerce.number().int().min(1).max(10_000).default(16),
  WEBHOOK_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(10_000).default(200),
  WORKER_ROLE: z.enum(['all', 'orders', 'webhooks']).default('all'),
  RATE_LIMIT_BURST: z.coerce.number().int().min(1).max(100_000).default(50),
  OAUTH_TOKEN_RATE_LIMIT_PER_SECOND: z.coerce.number().min(0.01).max(100_000).default(1),
  OAUTH_TOKEN_RATE_LIMIT_BURST: z.coerce.number().int().min(1).max(100_000).default(20),
  OPEN_RATE_LIMIT_PER_SECOND: z.coerce.number().min(0.01).max(100_000).default(5),
  OPEN_RATE_LIMIT_BURST: z.coerce.number().int().min(1).max(100_000).default(100),
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(30_000),
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(10_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(65_000),
  HTTP_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(2_000),
  WIDGET_URL: optionalUrl.pipe(z.url().optional()),
  WIDGET_RATE_LIMIT_PER_SECOND: z.coerce.number().min(0.1).max(100_000).default(200),
  WIDGET_RATE_LIMIT_BURST: z.coerce.number().int().min(1).max(1_000_000).default(2000),
});

/**
 * Sandbox-only vault key, used when CARD_VAULT_KEYS is unset in sandbox: the sandbox accepts only
 * the public test cards, so there is nothing secret to protect. Production refuses to start
 * without CARD_VAULT_KEYS.
 */
const SANDBOX_VAULT_KEYS = `sandbox-1:${Buffer.from('payment-rescue-sandbox-vault-key').toString('base64')}`;

/** Every variable the configuration reads (README's configuration table documents each). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(schema.shape);

export type Environment = 'sandbox' | 'production';

export interface Config {
  environment: Environment;
  host: string;
  port: number;
  /** Base URL merchants use; defaults to http://HOST:PORT. */
  publicBaseUrl: string;
  logLevel: string;
  dataDir: string;
  database: {
    /** Undefined means "start the embedded Postgres under dataDir". */
    url: string | undefined;
    poolMax: number;
    embeddedPort: number;
    /** A new connection must be ready within this; statements are cancelled by Postgres after the other. */
    connectTimeoutMs: number;
    statementTimeoutMs: number;
  };
  temporal: {
    /** Undefined means "start the Temporal dev server (with its Web UI) under dataDir". */
    address: string | undefined;
    namespace: string;
    taskQueue: string;
    /** Task queue of the webhook delivery workflows (their own worker and slots). */
    webhookTaskQueue: string;
    devServerPort: number;
    uiPort: number;
    /** TLS and API-key settings for a production cluster or Temporal Cloud (src/temporal/connect.ts). */
    security: TemporalSecurity;
    /** host:port of the worker's Prometheus exporter (the SDK's metrics); unset: none. */
    metricsBindAddress: string | undefined;
  };
  auth: {
    accessTokenTtlSeconds: number;
    rotationGraceMs: number;
  };
  vaultKeys: VaultKey[];
  /** Token buckets shared by every API process through Postgres (docs/rate-limits.md). */
  rateLimit: {
    /** Per merchant, on the payment endpoints and tokenize. */
    perSecond: number;
    burst: number;
    /** Per client id, on POST /v1/oauth2/token. */
    tokenPerClient: { perSecond: number; burst: number };
    /** Per client IP, on each open endpoint (token, health, failed tokenize keys and challenge reports). */
    perIp: { perSecond: number; burst: number };
  };
  /** The HTTP server: slow clients cannot hold connections (src/api/server.ts). */
  http: { requestTimeoutMs: number; headersTimeoutMs: number; keepAliveTimeoutMs: number; maxConnections: number };
  widget: {
    /** `{widget_url}`: where merchants load the script from (shown in the snippet). */
    url: string;
    /** The API the widget calls; null when it is the origin the script is loaded from. */
    apiBase: string | null;
    /** Per site, on the widget endpoints (per API process). */
    rateLimit: { perSecond: number; burst: number };
  };
  mail: { smtpUrl: string | undefined; from: string };
  webhooks: {
    timeoutMs: number;
    alertAfterMs: number;
    disableAfterMs: number;
    allowPrivateNetworks: boolean;
    /** Attempts in flight at once, across all workers, per endpoint and per merchant (docs/webhooks.md). */
    maxInFlightPerEndpoint: number;
    maxInFlightPerMerchant: number;
    /** Attempts one webhook worker process runs at once (its activity slots). */
    workerConcurrency: number;
  };
  /** Metrics (docs/deployment.md): a port of their own (else on the API port) and a bearer token. */
  metrics: { port: number | undefined; token: string | undefined };
  /** The standalone API (src/api/server.ts) runs the migrations at start only when true. */
  migrateOnStart: boolean;
  /** Readiness: a poller of the order task queue counts when seen within this (docs/deployment.md). */
  readyPollerMaxAgeMs: number;
  /** What the worker process (src/worker.ts) runs: both workers (default), or one of them. */
  workerRole: 'all' | 'orders' | 'webhooks';
  /** Operators' back-office credential (approve applications, raise disputes); unset: back office off. */
  adminToken: string | undefined;
}

/** How to reach a Temporal cluster that wants TLS, mTLS or an API key; all unset: plain gRPC. */
export interface TemporalSecurity {
  apiKey?: string | undefined;
  /** TEMPORAL_TLS: explicit on/off; unset: on when any TLS file or an API key is given. */
  tls?: boolean | undefined;
  clientCertPath?: string | undefined;
  clientKeyPath?: string | undefined;
  serverCaCertPath?: string | undefined;
  serverName?: string | undefined;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads and validates the configuration; throws ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const e = parsed.data;
  const publicBaseUrl = e.PUBLIC_BASE_URL ?? `http://${e.HOST === '0.0.0.0' ? '127.0.0.1' : e.HOST}:${e.PORT}`;
  if (e.FC_ENVIRONMENT === 'production' && !e.CARD_VAULT_KEYS) {
    throw new ConfigError(['CARD_VAULT_KEYS: required in production (keyId:base64 of a 32-byte key)']);
  }
  if (Boolean(e.TEMPORAL_TLS_CLIENT_CERT_PATH) !== Boolean(e.TEMPORAL_TLS_CLIENT_KEY_PATH)) {
    throw new ConfigError(['TEMPORAL_TLS_CLIENT_CERT_PATH and TEMPORAL_TLS_CLIENT_KEY_PATH: set both or neither']);
  }
  return {
    environment: e.FC_ENVIRONMENT,
    host: e.HOST,
    port: e.PORT,
    publicBaseUrl,
    logLevel: e.LOG_LEVEL,
    dataDir: path.resolve(e.DATA_DIR),
    database: {
      url: e.DATABASE_URL,
      poolMax: e.DATABASE_POOL_MAX,
      embeddedPort: e.EMBEDDED_POSTGRES_PORT,
      connectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
    },
    temporal: {
      address: e.TEMPORAL_ADDRESS,
      namespace: e.TEMPORAL_NAMESPACE,
      taskQueue: e.TEMPORAL_TASK_QUEUE,
      webhookTaskQueue: e.WEBHOOK_TASK_QUEUE ?? `${e.TEMPORAL_TASK_QUEUE}-webhooks`,
      devServerPort: e.TEMPORAL_DEV_SERVER_PORT,
      uiPort: e.TEMPORAL_UI_PORT,
      security: {
        apiKey: e.TEMPORAL_API_KEY,
        tls: e.TEMPORAL_TLS === undefined ? undefined : e.TEMPORAL_TLS === 'true',
        clientCertPath: e.TEMPORAL_TLS_CLIENT_CERT_PATH,
        clientKeyPath: e.TEMPORAL_TLS_CLIENT_KEY_PATH,
        serverCaCertPath: e.TEMPORAL_TLS_SERVER_CA_CERT_PATH,
        serverName: e.TEMPORAL_TLS_SERVER_NAME,
      },
      metricsBindAddress: e.TEMPORAL_METRICS_BIND_ADDRESS,
    },
    auth: {
      accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
      rotationGraceMs: e.API_KEY_ROTATION_GRACE_HOURS * 3_600_000,
    },
    vaultKeys: parseVaultKeys(e.CARD_VAULT_KEYS ?? SANDBOX_VAULT_KEYS),
    rateLimit: {
      perSecond: e.RATE_LIMIT_PER_SECOND,
      burst: e.RATE_LIMIT_BURST,
      tokenPerClient: { perSecond: e.OAUTH_TOKEN_RATE_LIMIT_PER_SECOND, burst: e.OAUTH_TOKEN_RATE_LIMIT_BURST },
      perIp: { perSecond: e.OPEN_RATE_LIMIT_PER_SECOND, burst: e.OPEN_RATE_LIMIT_BURST },
    },
    http: {
      requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
      // Node wants the headers deadline within the request's.
      headersTimeoutMs: Math.min(e.HTTP_HEADERS_TIMEOUT_MS, e.HTTP_REQUEST_TIMEOUT_MS),
      keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      maxConnections: e.HTTP_MAX_CONNECTIONS,
    },
    widget: widgetSettings(e.WIDGET_URL, publicBaseUrl, {
      perSecond: e.WIDGET_RATE_LIMIT_PER_SECOND,
      burst: e.WIDGET_RATE_LIMIT_BURST,
    }),
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM },
    webhooks: {
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      alertAfterMs: e.WEBHOOK_ALERT_AFTER_HOURS * 3_600_000,
      disableAfterMs: e.WEBHOOK_DISABLE_AFTER_HOURS * 3_600_000,
      // Sandbox defaults to allowing them: local development points webhooks at localhost.
      allowPrivateNetworks:
        (e.WEBHOOK_ALLOW_PRIVATE_NETWORKS ?? (e.FC_ENVIRONMENT === 'sandbox' ? 'true' : 'false')) === 'true',
      maxInFlightPerEndpoint: e.WEBHOOK_ENDPOINT_CONCURRENCY,
      maxInFlightPerMerchant: e.WEBHOOK_MERCHANT_CONCURRENCY,
      workerConcurrency: e.WEBHOOK_WORKER_CONCURRENCY,
    },
    metrics: { port: e.METRICS_PORT, token: e.METRICS_TOKEN },
    migrateOnStart: e.MIGRATE_ON_START === 'true',
    readyPollerMaxAgeMs: e.READY_POLLER_MAX_AGE_MS,
    workerRole: e.WORKER_ROLE,
    adminToken: e.ADMIN_API_TOKEN,
  };
}

/**
 * `{widget_url}` defaults to the service's own /widget/fc.js. Served from elsewhere (a CDN), the
 * script cannot infer the API from its own address, so it is told PUBLIC_BASE_URL.
 */
function widgetSettings(url: string | undefined, publicBaseUrl: string, rateLimit: Config['widget']['rateLimit']) {
  const widgetUrl = url ?? `${publicBaseUrl.replace(/\/$/, '')}/widget/fc.js`;
  const sameOrigin = new URL(widgetUrl).origin === new URL(publicBaseUrl).origin;
  return { url: widgetUrl, apiBase: sameOrigin ? null : publicBaseUrl.replace(/\/$/, ''), rateLimit };
}

/** For process entries: the configuration, or a message naming every bad variable and exit 1. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}
