import type { Knex } from 'knex';
import type { Instant } from './columns';

/** A row of `sense_signals`: one signal the widget sent under a sense session. */
export interface SenseSignalRecord {
  id: number;
  merchant_id: string;
  sense_key: string;
  site_id: string;
  kind: string;
  data: unknown;
  received_at: Date;
}

/** As written: what the database defaults may be left out; timestamps as Instant. */
export type SenseSignalInsert = Omit<SenseSignalRecord, 'id' | 'received_at'> & {
  id?: number;
  received_at: Instant;
};

export type SenseSignalsTable = Knex.CompositeTableType<
  SenseSignalRecord,
  SenseSignalInsert,
  Partial<SenseSignalInsert>
>;
