import type { CacheNotifications } from '../db/cache-notifications';
import { InvalidatedCache } from '../db/invalidated-cache';
import type { Db } from '../db/knex';
import { getMerchantSettings } from '../db/repositories/merchants';
import { findMerchantSite, type SiteRow } from '../db/repositories/sites';
import type { MerchantSettings } from '../domain/merchant-settings';

/**
 * The merchant settings and sites an evaluate reads, kept until a merchant_settings or sites
 * change is heard (the same guarantee as the token cache: src/api/token-cache.ts).
 */
export class SettingsCache {
  private readonly settings: InvalidatedCache<MerchantSettings>;
  private readonly sites: InvalidatedCache<SiteRow | undefined>;

  constructor(
    private readonly db: Db,
    notifications: CacheNotifications | undefined,
  ) {
    this.settings = new InvalidatedCache(notifications, ['merchant_settings']);
    this.sites = new InvalidatedCache(notifications, ['sites']);
  }

  merchantSettings(merchantId: string): Promise<MerchantSettings> {
    return this.settings.get(merchantId, () => getMerchantSettings(this.db, merchantId));
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
