import type { Knex } from 'knex';
import type { Instant } from './columns';

/** A row of `sense_sessions`: a widget sense session: one per merchant and senseKey, with when it was last seen. */
export interface SenseSessionRecord {
  merchant_id: string;
  sense_key: string;
  site_id: string;
  external_order_id: string | null;
  fingerprint: string | null;
  signal_count: number;
  first_seen_at: Date;
  last_seen_at: Date;
}

/** As written: what the database defaults may be left out; timestamps as Instant. */
export type SenseSessionInsert = Omit<
  SenseSessionRecord,
  'external_order_id' | 'fingerprint' | 'signal_count' | 'first_seen_at' | 'last_seen_at'
> & {
  external_order_id?: string | null;
  fingerprint?: string | null;
  signal_count?: number;
  first_seen_at: Instant;
  last_seen_at: Instant;
};

export type SenseSessionsTable = Knex.CompositeTableType<
  SenseSessionRecord,
  SenseSessionInsert,
  Partial<SenseSessionInsert>
>;
