import type { Environment } from '../config';
import type { Db } from '../db/knex';
import type { SiteRow } from '../db/repositories/sites';
import type { Clock } from '../domain/clock';
import type { NetworkRegion } from '../domain/network-rules';
import type { VaultKey } from '../domain/vault-cipher';
import type { AcceptedRescues } from './accepted-rescues';
import type { OrderClient } from './order-client';

/** What the order use cases need: the read model, the clock, the vault keys and the workflows. */
export interface OrderDeps {
  db: Db;
  clock: Clock;
  environment: Environment;
  vaultKeys: VaultKey[];
  workflows: OrderClient;
  acceptedRescues: AcceptedRescues;
  /** The card networks' region (CARD_NETWORK_REGION), for the retry budget (docs/network-rules.md). */
  networkRegion: NetworkRegion;
  /** Sites as the API process keeps them (src/api/settings-cache.ts); else read each time. */
  settings?: SettingsReads;
}

export interface SettingsReads {
  merchantSite(merchantId: string, siteId: string): Promise<SiteRow | undefined>;
}

/** The merchant a request acts for. */
export interface Acting {
  merchantId: string;
  partnerId: string;
}
