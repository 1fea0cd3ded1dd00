import type { Knex } from 'knex';
import type { Instant } from './columns';

/** A row of `merchants`: a merchant of a partner. */
export interface MerchantRecord {
  id: string;
  partner_id: string;
  name: string;
  created_at: Date;
}

/** As written: what the database defaults may be left out; timestamps as Instant. */
export type MerchantInsert = Omit<MerchantRecord, 'id' | 'created_at'> & {
  id?: string;
  created_at?: Instant;
};

export type MerchantsTable = Knex.CompositeTableType<MerchantRecord, MerchantInsert, Partial<MerchantInsert>>;
