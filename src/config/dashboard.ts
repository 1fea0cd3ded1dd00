import { z } from 'zod';
import { type EnvOf, optionalUrl } from './env';
import type { Environment } from './service';

/** The merchant dashboard (docs/dashboard.md): the secret its signed links are checked with. */

export const dashboardEnv = {
  DASHBOARD_LINK_SECRET: optionalUrl.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
};

/**
 * Sandbox-only secret, used when DASHBOARD_LINK_SECRET is unset in sandbox: the sandbox holds test
 * data only. Production has no default: without the variable its dashboard is closed (links are
 * refused with 403 dashboard_closed), as the back office is without ADMIN_API_TOKEN.
 */
const SANDBOX_LINK_SECRET = 'payment-rescue-sandbox-dashboard-link-secret';

export interface DashboardConfig {
  /** Signs and checks dashboard links; undefined: the dashboard is closed. */
  linkSecret: string | undefined;
}

export function dashboardSettings(e: EnvOf<typeof dashboardEnv>, environment: Environment): DashboardConfig {
  return { linkSecret: e.DASHBOARD_LINK_SECRET ?? (environment === 'sandbox' ? SANDBOX_LINK_SECRET : undefined) };
}
