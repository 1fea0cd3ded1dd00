/**
 * The error catalogue: every error the service returns. The identifier is six digits, the HTTP
 * status followed by three digits naming the specific error. docs/errors.md lists the same
 * entries (a unit test keeps the two in step). Clients should branch on `id` or `name`, never on
 * the message. Each family of errors has a file here; this index joins them.
 */

import { AUTH_ERRORS } from './auth';
import { CARD_ERRORS } from './cards';
import type { ErrorDefinition } from './definition';
import { IDEMPOTENCY_ERRORS } from './idempotency';
import { ONBOARDING_ERRORS } from './onboarding';
import { ORDER_ERRORS } from './orders';
import { REQUEST_ERRORS } from './request';
import { WEBHOOK_ERRORS } from './webhooks';
import { WIDGET_ERRORS } from './widget';

export type { ErrorDefinition, RetryAdvice } from './definition';

export const ERROR_CATALOGUE = {
  ...REQUEST_ERRORS,
  ...AUTH_ERRORS,
  ...IDEMPOTENCY_ERRORS,
  ...CARD_ERRORS,
  ...ORDER_ERRORS,
  ...WIDGET_ERRORS,
  ...WEBHOOK_ERRORS,
  ...ONBOARDING_ERRORS,
} as const satisfies Record<string, ErrorDefinition>;

export type ErrorName = keyof typeof ERROR_CATALOGUE;
