import { z } from 'zod';

/** The processors a merchant can be set to use (docs/processors.md). */
export const PROCESSOR_NAMES = ['sandbox', 'stripe'] as const;
export type ProcessorName = (typeof PROCESSOR_NAMES)[number];

/** 21 days: the longest async MIT rescue window the interface allows. */
export const MAX_RESCUE_WINDOW_HOURS = 21 * 24;

/**
 * What the interface says the merchant configures in the portal. Defaults apply to a merchant
 * that never changed them (docs/merchant-settings.md).
 */
export interface MerchantSettings {
  defaultExpiryHours: number;
  syncMitWindowHours: number;
  mitEvaluation: 'async' | 'sync';
  authorizeCapability: boolean;
  technicalContactEmail: string | null;
  captureWindowMinutes: number;
  /** Who charges: null is the environment's default (sandbox: the simulator; production: none, 503002). */
  processor: ProcessorName | null;
}

/** The settings an order runs by: all but the technical contact (personal data, kept out of histories). */
export type OrderSettings = Omit<MerchantSettings, 'technicalContactEmail'>;

/** What an evaluate sends its order of the merchant's settings (EvaluateInput.settings). */
export function orderSettingsOf({ technicalContactEmail: _, ...runsBy }: MerchantSettings): OrderSettings {
  return runsBy;
}

export const DEFAULT_MERCHANT_SETTINGS: MerchantSettings = {
  defaultExpiryHours: 7 * 24,
  syncMitWindowHours: 24,
  mitEvaluation: 'async',
  authorizeCapability: false,
  technicalContactEmail: null,
  captureWindowMinutes: 5,
  processor: null,
};

/** A PUT changes the fields it names; at least one is required. */
export const merchantSettingsUpdate = z
  .object({
    defaultExpiryHours: z
      .number()
      .int()
      .min(1)
      .max(MAX_RESCUE_WINDOW_HOURS, `must not exceed ${MAX_RESCUE_WINDOW_HOURS} hours (21 days)`),
    syncMitWindowHours: z.number().int().min(1).max(MAX_RESCUE_WINDOW_HOURS),
    mitEvaluation: z.enum(['async', 'sync']),
    authorizeCapability: z.boolean(),
    technicalContactEmail: z.email().max(254).nullable(),
    captureWindowMinutes: z
      .number()
      .int()
      .min(1)
      .max(7 * 24 * 60),
    processor: z.enum(PROCESSOR_NAMES).nullable(),
  })
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, 'name at least one setting to change');
