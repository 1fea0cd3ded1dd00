import type { ErrorDefinition } from './definition';

/** The request itself: its shape, path, method, size and rate; and the unexpected. */
export const REQUEST_ERRORS = {
  malformed_json: { id: '400001', status: 400, message: 'The request body is not valid JSON.', retry: 'after-fix' },
  validation_failed: {
    id: '400002',
    status: 400,
    message: 'A request field is missing or invalid.',
    retry: 'after-fix',
  },
  route_not_found: { id: '404001', status: 404, message: 'No resource exists at this path.', retry: 'no' },
  method_not_allowed: {
    id: '405001',
    status: 405,
    message: 'This method is not allowed on this resource.',
    retry: 'no',
  },
  payload_too_large: { id: '413001', status: 413, message: 'The request body is too large.', retry: 'after-fix' },
  unsupported_media_type: {
    id: '415001',
    status: 415,
    message: 'The request body must be JSON (content-type: application/json).',
    retry: 'after-fix',
  },
  rate_limited: {
    id: '429001',
    status: 429,
    message: 'Too many requests for this merchant, client or address. Retry after the Retry-After period.',
    retry: 'retry-after',
  },
  internal_error: {
    id: '500001',
    status: 500,
    message:
      'An unexpected error occurred. For idempotent operations the outcome is unknown; retry with the same idempotencyKey.',
    retry: 'backoff',
  },
} as const satisfies Record<string, ErrorDefinition>;
