import type { Knex } from 'knex';
import type { Instant } from './columns';

/** A row of `refunds`, the refunds ledger (src/db/repositories/refunds.ts). */
export interface RefundRecord {
  id: string;
  order_id: string;
  amount: number;
  currency: string;
  kind: 'full' | 'partial';
  idempotency_key: string | null;
  state: 'pending' | 'succeeded' | 'failed';
  processor_reference: string | null;
  created_at: Date;
  settled_at: Date | null;
}

export type RefundInsert = Omit<RefundRecord, 'created_at' | 'settled_at' | 'state'> & {
  state?: RefundRecord['state'];
  created_at: Instant;
  settled_at?: Instant | null;
};

export type RefundsTable = Knex.CompositeTableType<RefundRecord, RefundInsert, Partial<RefundInsert>>;
