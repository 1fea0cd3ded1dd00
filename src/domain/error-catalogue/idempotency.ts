import type { ErrorDefinition } from './definition';

/** Idempotency keys: required, reused with another request, in flight, store down. */
export const IDEMPOTENCY_ERRORS = {
  idempotency_key_required: {
    id: '400005',
    status: 400,
    message: 'A partial refund needs an idempotencyKey, so a retry cannot credit twice.',
    retry: 'after-fix',
  },
  idempotency_key_reused: {
    id: '409002',
    status: 409,
    message: 'This idempotencyKey was already used with a different request.',
    retry: 'no',
  },
  idempotency_request_in_flight: {
    id: '409003',
    status: 409,
    message: 'A request with this idempotencyKey is still in flight. Retry shortly with the same key.',
    retry: 'backoff',
  },
  idempotency_store_unavailable: {
    id: '503001',
    status: 503,
    message: 'The idempotency store is temporarily unavailable. Retry after the Retry-After period.',
    retry: 'retry-after',
  },
} as const satisfies Record<string, ErrorDefinition>;
