/**
 * The error catalogue: every error the service returns. The identifier is six digits, the HTTP
 * status followed by three digits naming the specific error. docs/errors.md lists the same
 * entries (a unit test keeps the two in step). Clients should branch on `id` or `name`, never on
 * the message.
 */

export type RetryAdvice = 'no' | 'after-fix' | 'backoff' | 'retry-after' | 'refresh-token-once';

export interface ErrorDefinition {
  id: string;
  status: number;
  message: string;
  retry: RetryAdvice;
}

export const ERROR_CATALOGUE = {
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
  internal_error: {
    id: '500001',
    status: 500,
    message:
      'An unexpected error occurred. For idempotent operations the outcome is unknown; retry with the same idempotencyKey.',
    retry: 'backoff',
  },
  idempotency_store_unavailable: {
    id: '503001',
    status: 503,
    message: 'The idempotency store is temporarily unavailable. Retry after the Retry-After period.',
    retry: 'retry-after',
  },
  rescue_unavailable: {
    id: '503002',
    status: 503,
    message: 'Rescue is unavailable for this transaction. Fall back to the original decline; do not retry.',
    retry: 'no',
  },
} as const satisfies Record<string, ErrorDefinition>;

export type ErrorName = keyof typeof ERROR_CATALOGUE;

/** An error the API turns into the one JSON error shape. */
export class ApiError extends Error {
  readonly definition: ErrorDefinition;

  constructor(
    readonly errorName: ErrorName,
    readonly details: { message?: string; field?: string; headers?: Record<string, string> } = {},
  ) {
    super(details.message ?? ERROR_CATALOGUE[errorName].message);
    this.name = 'ApiError';
    this.definition = ERROR_CATALOGUE[errorName];
  }

  get status(): number {
    return this.definition.status;
  }
}

/** The body of every error response. */
export interface ErrorBody {
  error: {
    id: string;
    name: ErrorName;
    message: string;
    field?: string;
    requestId: string;
  };
}

export function errorBody(error: ApiError, requestId: string): ErrorBody {
  return {
    error: {
      id: error.definition.id,
      name: error.errorName,
      message: error.message,
      ...(error.details.field ? { field: error.details.field } : {}),
      requestId,
    },
  };
}
