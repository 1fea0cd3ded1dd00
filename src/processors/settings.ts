import { z } from 'zod';
import { type EnvOf, optionalUrl } from '../config/env';

/**
 * Processor credentials, part of the service's configuration (src/config/index.ts; README,
 * "Configuration"; docs/processors.md):
 * - STRIPE_SECRET_KEY: a secret (sk_) or restricted (rk_) key; without it no merchant can use
 *   Stripe, and their evaluates answer 503002;
 * - STRIPE_API_BASE: another API origin, e.g. stripe-mock's http://127.0.0.1:12111 (default
 *   https://api.stripe.com);
 * - STRIPE_TIMEOUT_MS: per request, below the charge activity's 10 s start-to-close (default 8000).
 */
export interface StripeSettings {
  apiSecret: string;
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
  timeoutMs: number;
}

export interface ProcessorSettings {
  stripe: StripeSettings | null;
}

export const processorsEnv = {
  STRIPE_SECRET_KEY: optionalUrl.pipe(
    z
      .string()
      .regex(/^(sk|rk)_(test|live)_\w+$/, 'must be a Stripe secret (sk_) or restricted (rk_) key')
      .optional(),
  ),
  STRIPE_API_BASE: optionalUrl.pipe(z.url({ protocol: /^https?$/ }).optional()),
  STRIPE_TIMEOUT_MS: z.coerce.number().int().min(500).max(60_000).default(8000),
};

export function processorsSettings(e: EnvOf<typeof processorsEnv>): ProcessorSettings {
  if (!e.STRIPE_SECRET_KEY) return { stripe: null };
  const base = e.STRIPE_API_BASE ? new URL(e.STRIPE_API_BASE) : undefined;
  return {
    stripe: {
      apiSecret: e.STRIPE_SECRET_KEY,
      timeoutMs: e.STRIPE_TIMEOUT_MS,
      ...(base
        ? {
            host: base.hostname,
            protocol: base.protocol === 'http:' ? 'http' : 'https',
            port: base.port ? Number(base.port) : base.protocol === 'http:' ? 80 : 443,
          }
        : {}),
    },
  };
}
