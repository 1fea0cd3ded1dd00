import type { WidgetConfig } from '../domain/widget-config';
import type { TransportLimits } from './transport';

export interface RemoteConfig extends WidgetConfig {
  limits: TransportLimits & { flushIntervalMs: number };
}

/**
 * The site's configuration from GET {api}/v1/widget/{mid}/{siteId}/config. Null when the service
 * refuses (unknown site, origin not allowed: the browser then withholds the answer) or is out of
 * reach: the widget then collects nothing, and getSenseKey and setOrderId still work.
 */
export async function fetchConfig(api: string, mid: string, siteId: string): Promise<RemoteConfig | null> {
  try {
    const response = await fetch(`${api}/v1/widget/${encodeURIComponent(mid)}/${encodeURIComponent(siteId)}/config`, {
      mode: 'cors',
      credentials: 'omit',
    });
    if (!response.ok) return null;
    const config = (await response.json()) as RemoteConfig;
    return config?.collect && config.selectors && config.limits ? config : null;
  } catch {
    return null;
  }
}
