import type { Knex } from 'knex';
import type { Instant } from './columns';

/** A row of `merchant_settings`: a merchant's settings (what the interface calls the merchant portal). */
export interface MerchantSettingsRecord {
  merchant_id: string;
  default_expiry_hours: number;
  sync_mit_window_hours: number;
  mit_evaluation: 'async' | 'sync';
  authorize_capability: boolean;
  technical_contact_email: string | null;
  capture_window_minutes: number;
  processor: 'sandbox' | 'stripe' | null;
  updated_at: Date;
}

/** As written: what the database defaults may be left out; timestamps as Instant. */
export type MerchantSettingsInsert = Omit<
  MerchantSettingsRecord,
  'technical_contact_email' | 'processor' | 'updated_at'
> & {
  technical_contact_email?: string | null;
  processor?: 'sandbox' | 'stripe' | null;
  updated_at?: Instant;
};

export type MerchantSettingsTable = Knex.CompositeTableType<
  MerchantSettingsRecord,
  MerchantSettingsInsert,
  Partial<MerchantSettingsInsert>
>;
