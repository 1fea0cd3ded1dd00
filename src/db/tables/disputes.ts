import type { Knex } from 'knex';
import type { Instant } from './columns';

/** A row of `disputes`: a chargeback or early warning from the card networks, against one order. */
export interface DisputeRecord {
  /** The TransactionId of its events. */
  id: string;
  order_id: string;
  merchant_id: string;
  kind: 'chargeback' | 'early_warning';
  status: 'received' | 'reversed';
  reason: string;
  amount: number;
  currency: string;
  dispute_at: Date;
  reversed_at: Date | null;
}

export type DisputeInsert = Omit<DisputeRecord, 'dispute_at' | 'reversed_at'> & {
  dispute_at: Instant;
  reversed_at?: Instant | null;
};

export type DisputesTable = Knex.CompositeTableType<DisputeRecord, DisputeInsert, Partial<DisputeInsert>>;
