import type { Knex } from 'knex';
import type { Instant } from './columns';

/** A row of `partners`: a partner, which owns merchants (docs/onboarding.md). */
export interface PartnerRecord {
  id: string;
  name: string;
  created_at: Date;
}

/** As written: what the database defaults may be left out; timestamps as Instant. */
export type PartnerInsert = Omit<PartnerRecord, 'id' | 'created_at'> & {
  id?: string;
  created_at?: Instant;
};

export type PartnersTable = Knex.CompositeTableType<PartnerRecord, PartnerInsert, Partial<PartnerInsert>>;
