import { DEFAULT_MERCHANT_SETTINGS, type MerchantSettings } from '../../domain/merchant-settings';
import type { Db } from '../knex';
import type { MerchantRecord } from '../tables/merchants';

/** A row of `merchants` (its columns: src/db/tables/merchants.ts). */
export type MerchantRow = MerchantRecord;

export async function findMerchant(db: Db, id: string): Promise<MerchantRow | undefined> {
  return db('merchants').where({ id }).first();
}

export async function getMerchantSettings(db: Db, merchantId: string): Promise<MerchantSettings> {
  return merchantSettingsOf(await db('merchant_settings').where({ merchant_id: merchantId }).first());
}

/** A merchant_settings row as settings (the defaults when the merchant saved none). */
// biome-ignore lint/suspicious/noExplicitAny: the row as knex or pg gives it
export function merchantSettingsOf(row: any): MerchantSettings {
  if (!row) return { ...DEFAULT_MERCHANT_SETTINGS };
  return {
    defaultExpiryHours: row.default_expiry_hours,
    syncMitWindowHours: row.sync_mit_window_hours,
    mitEvaluation: row.mit_evaluation,
    authorizeCapability: row.authorize_capability,
    technicalContactEmail: row.technical_contact_email,
    captureWindowMinutes: row.capture_window_minutes,
    processor: row.processor ?? null,
  };
}

/** Applies a partial change over the current settings (defaults when none were saved). */
export async function updateMerchantSettings(
  db: Db,
  merchantId: string,
  change: Partial<MerchantSettings>,
  now: Date,
): Promise<MerchantSettings> {
  return db.transaction(async (trx) => {
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`merchant-settings:${merchantId}`]);
    const next = { ...(await getMerchantSettings(trx, merchantId)), ...change };
    await trx('merchant_settings')
      .insert({
        merchant_id: merchantId,
        default_expiry_hours: next.defaultExpiryHours,
        sync_mit_window_hours: next.syncMitWindowHours,
        mit_evaluation: next.mitEvaluation,
        authorize_capability: next.authorizeCapability,
        technical_contact_email: next.technicalContactEmail,
        capture_window_minutes: next.captureWindowMinutes,
        processor: next.processor,
        updated_at: now,
      })
      .onConflict('merchant_id')
      .merge();
    return next;
  });
}
