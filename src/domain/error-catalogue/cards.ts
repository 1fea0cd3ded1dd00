import type { ErrorDefinition } from './definition';

/** The card in a request: number, brand, expiry, sandbox test cards (and their refusal in production). */
export const CARD_ERRORS = {
  card_number_invalid: {
    id: '400010',
    status: 400,
    message: 'The card number is not a valid card number (digits, length or check digit).',
    retry: 'after-fix',
  },
  card_brand_unsupported: { id: '400011', status: 400, message: 'The card brand is not supported.', retry: 'no' },
  card_expired: { id: '400012', status: 400, message: 'The card has expired.', retry: 'no' },
  sandbox_card_not_allowed: {
    id: '400013',
    status: 400,
    message: 'The sandbox accepts only the whitelisted test cards (docs/sandbox.md).',
    retry: 'after-fix',
  },
  test_card_not_allowed: {
    id: '400014',
    status: 400,
    message: 'Production takes real cards only: sandbox test cards are refused (docs/go-live.md).',
    retry: 'after-fix',
  },
} as const satisfies Record<string, ErrorDefinition>;
