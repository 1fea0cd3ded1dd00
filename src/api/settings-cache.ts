import type { CacheNotifications } from '../db/cache-notifications';
import { InvalidatedCache } from '../db/invalidated-cache';
import type { Db } from '../db/knex';
import { findMerchantSite, type SiteRow } from '../db/repositories/sites';

/**
 * The sites an evaluate reads, kept until a sites change is heard (the same guarantee as the
 * token cache: src/api/token-cache.ts). The merchant's settings are not kept: they come in the
 * evaluate's one round trip of reads (src/db/repositories/evaluate-reads.ts), so a settings change
 * applies to the very next evaluate.
 */
export class SettingsCache {
  private readonly sites: InvalidatedCache<SiteRow | undefined>;

  constructor(
    private readonly db: Db,
    notifications: CacheNotifications | undefined,
  ) {
    this.sites = new InvalidatedCache(notifications, ['sites']);
  }

  /** The merchant's site `siteId`; undefined when it is not one of the merchant's. */
  merchantSite(merchantId: string, siteId: string): Promise<SiteRow | undefined> {
    return this.sites.get(
      `${merchantId}:${siteId}`,
      () => findMerchantSite(this.db, merchantId, siteId),
      (site) => site !== undefined,
    );
  }
}
