import { setTimeout as sleep } from 'node:timers/promises';
import { type CallContext, PaymentRescueError, PaymentRescueNetworkError } from './errors';
import { backoffDelay, decide, parseRetryAfter, type RetryOptions } from './retry-policy';

/** Told before each retry: why, and how long the client waits. */
export interface RetryEvent {
  method: string;
  path: string;
  /** The attempt that failed (1 = the first). */
  attempt: number;
  delayMs: number;
  reason: 'backoff' | 'retry-after' | 'token-refresh';
  status: number | undefined;
  id: string | undefined;
  idempotencyKey: string | undefined;
}

export interface Request {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  query?: Record<string, string | number | undefined>;
  /** JSON body, or form fields (`form`: the token endpoint). */
  body?: unknown;
  form?: Record<string, string>;
  /** Repeating it cannot act twice (GET, PUT, DELETE, a call carrying an idempotencyKey). */
  idempotent: boolean;
  idempotencyKey?: string;
  /** How the call authenticates: a header set per attempt (the bearer token may change). */
  auth?: AuthProvider;
  signal?: AbortSignal;
}

/** Supplies the credential header; `refresh` after a 401 (once per call). */
export interface AuthProvider {
  header(): Promise<Record<string, string>>;
  refresh?(rejected: Record<string, string>): Promise<void>;
}

export interface TransportOptions {
  baseUrl: string;
  retry: RetryOptions;
  /** Deadline of one attempt; a timeout counts as no answer. */
  timeoutMs: number;
  userAgent: string;
  onRetry?: (event: RetryEvent) => void;
}

interface Answer {
  status: number;
  body: unknown;
  headers: Headers;
}

/** HTTP with the interface's retry and token rules: one call in, one answer (or a typed error) out. */
export class Transport {
  constructor(private readonly options: TransportOptions) {}

  async call<T>(req: Request): Promise<T> {
    const { retry } = this.options;
    const context: CallContext = {
      method: req.method,
      path: req.path,
      idempotencyKey: req.idempotencyKey,
      attempts: 0,
    };
    let refreshed = false;
    for (;;) {
      context.attempts += 1;
      const auth = (await req.auth?.header()) ?? {};
      let answer: Answer;
      try {
        answer = await this.attempt(req, auth);
      } catch (err) {
        if (req.signal?.aborted) throw err;
        const timedOut = err instanceof Error && err.name === 'TimeoutError';
        if (!req.idempotent || context.attempts >= retry.maxAttempts) {
          throw new PaymentRescueNetworkError(err, timedOut, { ...context });
        }
        await this.wait(req, context, backoffDelay(context.attempts, retry), 'backoff', undefined, undefined);
        continue;
      }
      if (answer.status < 400) return answer.body as T;

      const id = errorId(answer.body);
      if (answer.status === 401 && req.auth?.refresh && !refreshed) {
        refreshed = true;
        this.options.onRetry?.({ ...eventOf(req, context), delayMs: 0, reason: 'token-refresh', status: 401, id });
        await req.auth.refresh(auth);
        context.attempts -= 1; // the interface's "refresh once and retry" is not a retry of the call
        continue;
      }
      const retryAfterMs = parseRetryAfter(answer.headers.get('retry-after'));
      const error = () =>
        new PaymentRescueError(
          answer.status,
          answer.body,
          { requestId: answer.headers.get('x-request-id') ?? undefined, retryAfterMs },
          { ...context },
        );
      const decision = decide({ status: answer.status, id, retryAfterMs }, req.idempotent, retry);
      if (decision.kind === 'no' || context.attempts >= retry.maxAttempts) throw error();
      const delay = decision.kind === 'retry-after' ? decision.ms : backoffDelay(context.attempts, retry);
      await this.wait(req, context, delay, decision.kind, answer.status, id);
    }
  }

  private async wait(
    req: Request,
    context: CallContext,
    delayMs: number,
    reason: RetryEvent['reason'],
    status: number | undefined,
    id: string | undefined,
  ): Promise<void> {
    this.options.onRetry?.({ ...eventOf(req, context), delayMs, reason, status, id });
    await sleep(delayMs, undefined, req.signal ? { signal: req.signal } : undefined);
  }

  private async attempt(req: Request, auth: Record<string, string>): Promise<Answer> {
    const url = new URL(req.path, this.options.baseUrl);
    for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.options.userAgent,
      ...auth,
    };
    let body: string | undefined;
    if (req.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(req.form).toString();
    } else if (req.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(req.body);
    }
    const res = await fetch(url, {
      method: req.method,
      headers,
      body,
      signal: req.signal ? AbortSignal.any([req.signal, timeout]) : timeout,
    });
    const text = await res.text();
    let parsed: unknown = text === '' ? null : text;
    if (text !== '' && (res.headers.get('content-type') ?? '').includes('json')) {
      try {
        parsed = JSON.parse(text);
      } catch {
        // A proxy's HTML error page, say: kept as text on the error.
      }
    }
    return { status: res.status, body: parsed, headers: res.headers };
  }
}

/** The six-digit id of either error shape (`{ error: { id } }`, or OAuth's `{ error, id }`). */
function errorId(body: unknown): string | undefined {
  const b = body as { id?: unknown; error?: { id?: unknown } } | null;
  const id = typeof b?.error === 'object' ? b.error.id : b?.id;
  return typeof id === 'string' ? id : undefined;
}

function eventOf(req: Request, context: CallContext) {
  return { method: req.method, path: req.path, attempt: context.attempts, idempotencyKey: req.idempotencyKey };
}
