import type { Db } from '../db/knex';
import type { ApiKeyRow } from '../db/repositories/api-keys';
import { findMerchant, type MerchantRow } from '../db/repositories/merchants';
import { ApiError } from '../domain/errors';
import type { Principal } from '../domain/scopes';

/**
 * Merchant isolation. A merchant key acts for its own merchant only; a partner key acts for the
 * merchants its partner owns. Anything else is 403 merchant_forbidden, whether or not that
 * merchant exists (existence is not disclosed).
 */
export async function merchantInReach(db: Db, principal: Principal, merchantId: string): Promise<MerchantRow> {
  if (principal.merchantId && principal.merchantId !== merchantId) throw new ApiError('merchant_forbidden');
  const merchant = await findMerchant(db, merchantId);
  if (!merchant || merchant.partner_id !== principal.partnerId) throw new ApiError('merchant_forbidden');
  return merchant;
}

/** The merchant a payment call acts for: only merchant keys make payment calls. */
export function payingMerchant(principal: Principal): string {
  if (!principal.merchantId) {
    throw new ApiError('merchant_forbidden', { message: 'Payment calls need a merchant API key, not a partner key.' });
  }
  return principal.merchantId;
}

/** Whether the caller may see and manage this API key (else it answers 404, as if unknown). */
export function canManageApiKey(principal: Principal, key: ApiKeyRow): boolean {
  if (principal.merchantId) return key.merchant_id === principal.merchantId;
  return key.partner_id === principal.partnerId;
}
