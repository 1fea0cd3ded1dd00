import type { Error as ErrorBody, OAuthError } from './generated/openapi';

export type { ErrorBody, OAuthError };

/** The identifier, name, message and request id of either error shape (the token endpoint's is OAuth's). */
function detailsOf(body: unknown): { id?: string; name?: string; message?: string; requestId?: string } {
  if (!body || typeof body !== 'object') return {};
  const error = (body as { error?: unknown }).error;
  if (error && typeof error === 'object') return error as Partial<ErrorBody['error']>;
  const oauth = body as Partial<OAuthError>;
  return { id: oauth.id, name: oauth.name, message: oauth.error_description, requestId: oauth.requestId };
}

/** What the client knows about the call that failed, beyond the answer itself. */
export interface CallContext {
  method: string;
  path: string;
  /** The idempotencyKey the call carried (the same on every attempt): retry later with it. */
  idempotencyKey: string | undefined;
  /** Attempts made, retries included. */
  attempts: number;
}

/**
 * The service answered with an error. `id` is the six-digit identifier (docs/errors.md): branch
 * on it (or on `code`, its name), never on the message.
 */
export class PaymentRescueError extends Error {
  override readonly name = 'PaymentRescueError';
  readonly status: number;
  /** Six digits: the HTTP status, then three naming the error (e.g. `503002`). */
  readonly id: string | undefined;
  /** The catalogue name of `id` (e.g. `rescue_unavailable`). */
  readonly code: string | undefined;
  /** The service's request id (also the `x-request-id` header): quote it to support. */
  readonly requestId: string | undefined;
  /** Retry-After of the last answer, in milliseconds, when it carried one. */
  readonly retryAfterMs: number | undefined;
  /**
   * True for `503002` rescue_unavailable: the service will not rescue this transaction. Fall back
   * to the original decline; do not retry.
   */
  readonly fallBackToOriginalDecline: boolean;
  /**
   * True when the call may have taken effect although it failed (500, 502, 504): retry later with
   * the same `idempotencyKey`, or look the order up, before charging again.
   */
  readonly outcomeUnknown: boolean;
  readonly idempotencyKey: string | undefined;
  readonly attempts: number;
  readonly method: string;
  readonly path: string;
  /** The parsed error body (`ErrorBody`, or `OAuthError` from the token endpoint). */
  readonly body: unknown;

  constructor(
    status: number,
    body: unknown,
    headers: { requestId: string | undefined; retryAfterMs: number | undefined },
    call: CallContext,
  ) {
    const error = detailsOf(body);
    super(error.message ?? `HTTP ${status} from ${call.method} ${call.path}`);
    this.status = status;
    this.id = error.id;
    this.code = error.name;
    this.requestId = error.requestId ?? headers.requestId;
    this.retryAfterMs = headers.retryAfterMs;
    this.fallBackToOriginalDecline = this.id === '503002';
    this.outcomeUnknown = status === 500 || status === 502 || status === 504;
    this.idempotencyKey = call.idempotencyKey;
    this.attempts = call.attempts;
    this.method = call.method;
    this.path = call.path;
    this.body = body;
  }
}

/**
 * No answer came: the connection failed or the attempt timed out (`timedOut`). The call may have
 * reached the service (`outcomeUnknown` is always true): retry with the same `idempotencyKey`.
 */
export class PaymentRescueNetworkError extends Error {
  override readonly name = 'PaymentRescueNetworkError';
  readonly timedOut: boolean;
  readonly outcomeUnknown = true;
  readonly idempotencyKey: string | undefined;
  readonly attempts: number;
  readonly method: string;
  readonly path: string;

  constructor(cause: unknown, timedOut: boolean, call: CallContext) {
    const what = timedOut ? 'timed out' : `failed (${cause instanceof Error ? cause.message : String(cause)})`;
    super(`${call.method} ${call.path} ${what}`, { cause });
    this.timedOut = timedOut;
    this.idempotencyKey = call.idempotencyKey;
    this.attempts = call.attempts;
    this.method = call.method;
    this.path = call.path;
  }
}
