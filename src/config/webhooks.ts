import { z } from 'zod';
import type { PrivateNetworks } from '../domain/webhooks/destination';
import type { EnvOf } from './env';
import type { Environment } from './service';

/** Webhook delivery: attempt timeout, alerting and disabling failing endpoints, concurrency. */

export const webhooksEnv = {
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
  WEBHOOK_ENDPOINT_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(4),
  WEBHOOK_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(10_000).default(200),
};

export interface WebhooksConfig {
  timeoutMs: number;
  alertAfterMs: number;
  disableAfterMs: number;
  /** Private addresses endpoints may resolve to (docs/webhooks.md). */
  privateNetworks: PrivateNetworks;
  /** Attempts in flight at once per endpoint, across all workers (docs/webhooks.md): its workflow's bound. */
  maxInFlightPerEndpoint: number;
  /** Attempts one webhook worker process runs at once (its activity slots). */
  workerConcurrency: number;
}

export function webhooksSettings(e: EnvOf<typeof webhooksEnv>, environment: Environment): WebhooksConfig {
  return {
    timeoutMs: e.WEBHOOK_TIMEOUT_MS,
    alertAfterMs: e.WEBHOOK_ALERT_AFTER_HOURS * 3_600_000,
    disableAfterMs: e.WEBHOOK_DISABLE_AFTER_HOURS * 3_600_000,
    // Unset, a sandbox allows loopback only: a local run's receivers, not the network around it.
    privateNetworks:
      e.WEBHOOK_ALLOW_PRIVATE_NETWORKS === 'true'
        ? 'all'
        : e.WEBHOOK_ALLOW_PRIVATE_NETWORKS === undefined && environment === 'sandbox'
          ? 'loopback'
          : 'none',
    maxInFlightPerEndpoint: e.WEBHOOK_ENDPOINT_CONCURRENCY,
    workerConcurrency: e.WEBHOOK_WORKER_CONCURRENCY,
  };
}
