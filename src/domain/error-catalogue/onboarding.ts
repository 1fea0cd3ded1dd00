import type { ErrorDefinition } from './definition';

/** Merchant applications and tokenization keys (onboarding). */
export const ONBOARDING_ERRORS = {
  application_not_found: {
    id: '404022',
    status: 404,
    message: 'The specified application could not be located.',
    retry: 'no',
  },
  tokenization_key_not_found: {
    id: '404023',
    status: 404,
    message: 'The specified tokenization key could not be located.',
    retry: 'no',
  },
  application_transition_not_allowed: {
    id: '409020',
    status: 409,
    message: 'The application cannot make this transition from its current status.',
    retry: 'no',
  },
} as const satisfies Record<string, ErrorDefinition>;
