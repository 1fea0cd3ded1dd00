import type { Knex } from 'knex';
import type { Instant } from './columns';

/** A row of `sites`: a merchant's site, with the origins its widget may be served to. */
export interface SiteRecord {
  id: string;
  merchant_id: string;
  name: string;
  allowed_origins: string[];
  created_at: Date;
}

/** As written: what the database defaults may be left out; timestamps as Instant. */
export type SiteInsert = Omit<SiteRecord, 'id' | 'allowed_origins' | 'created_at'> & {
  id?: string;
  allowed_origins?: string[];
  created_at?: Instant;
};

export type SitesTable = Knex.CompositeTableType<SiteRecord, SiteInsert, Partial<SiteInsert>>;
