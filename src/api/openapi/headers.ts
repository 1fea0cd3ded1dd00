import { ERROR_CATALOGUE } from '../../domain/errors';
import type { Json, Operation } from './registry';

/**
 * The response headers the service sets, described once in `components.headers` and referenced
 * from each answer that carries them: x-request-id on every answer (src/api/middleware/request-id.ts),
 * RateLimit-* on every answer of a rate-limited operation, Retry-After on the 429s and 503s
 * whose advice is to retry after it (src/api/middleware/rate-limit.ts, database-unavailable.ts), Idempotent-Replayed on a
 * replayed success (src/api/idempotency.ts).
 */
export const RESPONSE_HEADERS: Record<string, Json> = {
  RequestId: {
    description: "The request's id (the caller's x-request-id when well-formed, else a new UUID); quote it to support.",
    schema: { type: 'string' },
    example: '9a88b3c3-d5a7-4e42-91b8-6e0665a0566e',
  },
  RetryAfter: {
    description: 'Seconds to wait before retrying (docs/rate-limits.md).',
    schema: { type: 'integer', minimum: 1 },
    example: 2,
  },
  RateLimitLimit: {
    description: 'Requests the tightest limit allows in a burst.',
    schema: { type: 'integer' },
    example: 50,
  },
  RateLimitRemaining: {
    description: 'Requests left in the current burst.',
    schema: { type: 'integer' },
    example: 49,
  },
  RateLimitReset: {
    description: 'Seconds until the burst is whole again.',
    schema: { type: 'integer' },
    example: 1,
  },
  IdempotentReplayed: {
    description: '`true` when this is the stored answer of an earlier request with the same idempotencyKey.',
    schema: { type: 'string', enum: ['true'] },
    example: 'true',
  },
};

const ref = (name: keyof typeof RESPONSE_HEADERS & string): Json => ({ $ref: `#/components/headers/${name}` });

/** Whether the operation runs behind a rate limit: it can answer one of the rate-limit errors. */
function isRateLimited(op: Operation): boolean {
  return op.errors.includes('rate_limited') || op.errors.includes('widget_rate_limited');
}

/** The headers of one answer of `op` with HTTP `status`. */
export function headersOf(op: Operation, status: number): Json {
  const headers: Json = { 'x-request-id': ref('RequestId') };
  if (isRateLimited(op)) {
    headers['RateLimit-Limit'] = ref('RateLimitLimit');
    headers['RateLimit-Remaining'] = ref('RateLimitRemaining');
    headers['RateLimit-Reset'] = ref('RateLimitReset');
  }
  const retryAfter = op.errors.some(
    (n) => ERROR_CATALOGUE[n].status === status && ERROR_CATALOGUE[n].retry === 'retry-after',
  );
  if (retryAfter) headers['Retry-After'] = ref('RetryAfter');
  if (op.idempotent && status >= 200 && status < 300) headers['Idempotent-Replayed'] = ref('IdempotentReplayed');
  return headers;
}
