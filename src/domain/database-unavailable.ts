import { ApiError } from './errors';

/** Seconds a caller is asked to wait when the database is unavailable. */
export const DATABASE_RETRY_AFTER_SECONDS = 1;

/** The 503 for "the database is unavailable": 503001, retryable, with Retry-After (docs/errors.md). */
export function databaseUnavailable(message?: string): ApiError {
  return new ApiError('idempotency_store_unavailable', {
    ...(message ? { message } : {}),
    headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
  });
}
