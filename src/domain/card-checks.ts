import { type CardBrand, checkCardNumber, isExpired, isSandboxTestCard } from './cards';
import type { Environment } from './environment';
import { ApiError } from './errors';

/**
 * The checks a card number passes before it is vaulted (tokenize, and a raw card on evaluate):
 * number, brand, expiry and the test cards: in sandbox only they, in production never they. Errors name the field under
 * `prefix` and never echo the number.
 */
export function checkCardForVault(
  card: { cardNumber: string; expiryMonth: number; expiryYear: number },
  environment: Environment,
  now: Date,
  prefix = '',
): { pan: string; brand: CardBrand } {
  const field = (name: string) => (prefix ? `${prefix}.${name}` : name);
  const checked = checkCardNumber(card.cardNumber);
  if (!checked.ok) {
    throw new ApiError(checked.problem === 'brand' ? 'card_brand_unsupported' : 'card_number_invalid', {
      field: field('cardNumber'),
    });
  }
  if (isExpired(card.expiryMonth, card.expiryYear, now))
    throw new ApiError('card_expired', { field: field('expiryYear') });
  if (environment === 'sandbox' && !isSandboxTestCard(checked.pan)) {
    throw new ApiError('sandbox_card_not_allowed', { field: field('cardNumber') });
  }
  // Production takes real cards only: a sandbox test card there is a misconfigured integration.
  if (environment === 'production' && isSandboxTestCard(checked.pan)) {
    throw new ApiError('test_card_not_allowed', { field: field('cardNumber') });
  }
  return { pan: checked.pan, brand: checked.brand };
}
