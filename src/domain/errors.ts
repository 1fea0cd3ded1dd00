import { ERROR_CATALOGUE, type ErrorDefinition, type ErrorName } from './error-catalogue';
import { errorDocUrl } from './error-catalogue/doc-url';

/** The API's one error shape, built from the catalogue (src/domain/error-catalogue/). */
export { ERROR_CATALOGUE, type ErrorDefinition, type ErrorName, type RetryAdvice } from './error-catalogue';

/** An error the API turns into the one JSON error shape. */
export class ApiError extends Error {
  readonly definition: ErrorDefinition;

  constructor(
    readonly errorName: ErrorName,
    readonly details: {
      message?: string;
      field?: string;
      headers?: Record<string, string>;
      /** Set on /v1/oauth2/token: RFC 6749 section 5.2 wants `error` to be this code. */
      oauthError?: string;
      /** Further fields of the error object (for example the order's current status). */
      extra?: Record<string, unknown>;
      /** Further top-level fields beside `error` (for example a refusal's `responseMessage`). */
      topLevel?: Record<string, unknown>;
    } = {},
  ) {
    super(details.message ?? ERROR_CATALOGUE[errorName].message);
    this.name = 'ApiError';
    this.definition = ERROR_CATALOGUE[errorName];
  }

  get status(): number {
    return this.definition.status;
  }
}

/**
 * The body of every error response: the `error` object, and beside it `title` (the message) and
 * `TraceId` (the request id), the top-level fields FlexCharge clients (ActiveMerchant's gateway)
 * read an error's text from (docs/compatibility.md).
 */
export interface ErrorBody {
  title: string;
  TraceId: string;
  [topLevel: string]: unknown;
  error: {
    id: string;
    name: ErrorName;
    message: string;
    field?: string;
    /** Its entry in docs/errors.md. */
    doc_url: string;
    requestId: string;
    [extra: string]: unknown;
  };
}

/** The token endpoint's error body: RFC 6749 fields, plus our identifier. */
export interface OAuthErrorBody {
  error: string;
  error_description: string;
  id: string;
  name: ErrorName;
  field?: string;
  /** RFC 6749's link to the error's documentation; `doc_url` is the same, as in the other errors. */
  error_uri: string;
  doc_url: string;
  requestId: string;
}

export function errorBody(error: ApiError, requestId: string): ErrorBody | OAuthErrorBody {
  if (error.details.oauthError) {
    return {
      error: error.details.oauthError,
      error_description: error.message,
      id: error.definition.id,
      name: error.errorName,
      ...(error.details.field ? { field: error.details.field } : {}),
      error_uri: errorDocUrl(error.definition.id),
      doc_url: errorDocUrl(error.definition.id),
      requestId,
    };
  }
  return {
    ...error.details.topLevel,
    title: error.message,
    TraceId: requestId,
    error: {
      id: error.definition.id,
      name: error.errorName,
      message: error.message,
      ...(error.details.field ? { field: error.details.field } : {}),
      ...error.details.extra,
      doc_url: errorDocUrl(error.definition.id),
      requestId,
    },
  };
}
