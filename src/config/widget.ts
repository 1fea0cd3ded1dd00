import { z } from 'zod';
import { type EnvOf, optionalUrl } from './env';

/** The browser widget: where merchants load it from, and its per-site rate limit. */

export const widgetEnv = {
  WIDGET_URL: optionalUrl.pipe(z.url().optional()),
  WIDGET_RATE_LIMIT_PER_SECOND: z.coerce.number().min(0.1).max(100_000).default(200),
  WIDGET_RATE_LIMIT_BURST: z.coerce.number().int().min(1).max(1_000_000).default(2000),
};

export interface WidgetSettings {
  /** `{widget_url}`: where merchants load the script from (shown in the snippet). */
  url: string;
  /** The API the widget calls; null when it is the origin the script is loaded from. */
  apiBase: string | null;
  /** Per site, on the widget endpoints (per API process). */
  rateLimit: { perSecond: number; burst: number };
}

/**
 * `{widget_url}` defaults to the service's own /widget/fc.js. Served from elsewhere (a CDN), the
 * script cannot infer the API from its own address, so it is told PUBLIC_BASE_URL.
 */
export function widgetSettings(e: EnvOf<typeof widgetEnv>, publicBaseUrl: string): WidgetSettings {
  const base = publicBaseUrl.replace(/\/$/, '');
  const url = e.WIDGET_URL ?? `${base}/widget/fc.js`;
  const sameOrigin = new URL(url).origin === new URL(publicBaseUrl).origin;
  return {
    url,
    apiBase: sameOrigin ? null : base,
    rateLimit: { perSecond: e.WIDGET_RATE_LIMIT_PER_SECOND, burst: e.WIDGET_RATE_LIMIT_BURST },
  };
}
