import path from 'node:path';
import { z } from 'zod';
import type { Environment } from '../domain/environment';
import { DEFAULT_NETWORK_REGION, NETWORK_REGIONS, type NetworkRegion } from '../domain/network-rules';
import { type EnvOf, optionalUrl, port } from './env';

/** The process itself: environment, where it listens, logs and keeps data, what it runs. */

export type { Environment };

export const serviceEnv = {
  FC_ENVIRONMENT: z.enum(['sandbox', 'production']).default('sandbox'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: port.default(3000),
  PUBLIC_BASE_URL: optionalUrl.pipe(z.url().optional()),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().min(1).default('.data'),
  MIGRATE_ON_START: z.enum(['true', 'false']).default('false'),
  METRICS_PORT: port.optional(),
  METRICS_TOKEN: optionalUrl.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  READY_POLLER_MAX_AGE_MS: z.coerce.number().int().min(1_000).max(600_000).default(75_000),
  // Above the 1 s heartbeat interval with room for a busy event loop; at most 5 s (issue 13).
  READY_WORKER_HEARTBEAT_MAX_AGE_MS: z.coerce.number().int().min(2_000).max(60_000).default(4_000),
  WORKER_ROLE: z.enum(['all', 'orders', 'webhooks']).default('all'),
  WORKER_HEALTH_PORT: port.optional(),
  API_PROCESSES: z.coerce.number().int().min(1).max(16).default(1),
  CARD_NETWORK_REGION: z.enum(NETWORK_REGIONS).default(DEFAULT_NETWORK_REGION),
};

export interface ServiceConfig {
  environment: Environment;
  host: string;
  port: number;
  /** Base URL merchants use; defaults to http://HOST:PORT. */
  publicBaseUrl: string;
  logLevel: string;
  dataDir: string;
  /** Metrics (docs/deployment.md): a port of their own (else on the API port) and a bearer token. */
  metrics: { port: number | undefined; token: string | undefined };
  /** The standalone API (src/api/server.ts) runs the migrations at start only when true. */
  migrateOnStart: boolean;
  /** /v1/health/workers: a poller of the order task queue counts when seen within this (docs/deployment.md). */
  readyPollerMaxAgeMs: number;
  /** /v1/health/workers: a worker process counts when its heartbeat row is younger than this. */
  readyWorkerHeartbeatMaxAgeMs: number;
  /** What the worker process (src/worker.ts) runs: both workers (default), or one of them. */
  workerRole: 'all' | 'orders' | 'webhooks';
  /** The worker process's own liveness and readiness probes listen here; unset: none. */
  workerHealthPort: number | undefined;
  /** Where the merchants' cards are acquired: the card networks' retry thresholds differ by region (docs/network-rules.md). */
  networkRegion: NetworkRegion;
  /** `npm start`: how many API processes it runs beside its worker process (scripts/service-processes.ts). */
  apiProcesses: number;
}

export function serviceSettings(e: EnvOf<typeof serviceEnv>): ServiceConfig {
  return {
    environment: e.FC_ENVIRONMENT,
    host: e.HOST,
    port: e.PORT,
    publicBaseUrl: e.PUBLIC_BASE_URL ?? `http://${e.HOST === '0.0.0.0' ? '127.0.0.1' : e.HOST}:${e.PORT}`,
    logLevel: e.LOG_LEVEL,
    dataDir: path.resolve(e.DATA_DIR),
    metrics: { port: e.METRICS_PORT, token: e.METRICS_TOKEN },
    migrateOnStart: e.MIGRATE_ON_START === 'true',
    readyPollerMaxAgeMs: e.READY_POLLER_MAX_AGE_MS,
    readyWorkerHeartbeatMaxAgeMs: e.READY_WORKER_HEARTBEAT_MAX_AGE_MS,
    workerRole: e.WORKER_ROLE,
    workerHealthPort: e.WORKER_HEALTH_PORT,
    apiProcesses: e.API_PROCESSES,
    networkRegion: e.CARD_NETWORK_REGION,
  };
}
