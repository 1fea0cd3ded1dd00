import { randomUUID } from 'node:crypto';
import { DEFAULT_RETRY, type RetryOptions } from './retry-policy';
import { BearerTokens } from './token';
import { type AuthProvider, type Request, type RetryEvent, Transport } from './transport';
import type {
  CallOptions,
  CancelRequest,
  CaptureRequest,
  CreateWebhookEndpointRequest,
  EvaluateRequest,
  EventPage,
  EventRecord,
  ListEventsParams,
  ListOrdersParams,
  OrderPage,
  RefundRequest,
  ResponseBody,
  TokenizeRequest,
  UpdateWebhookEndpointRequest,
  VaultedCard,
} from './types';

export const VERSION = '1.0.0';

export interface ClientOptions {
  /** The API host, e.g. `https://sandbox.example.com` (paths start with /v1). */
  baseUrl: string;
  /** API key id and secret (client credentials). */
  clientId: string;
  clientSecret: string;
  /** Space-separated scopes to ask for; default: the key's own. */
  scope?: string;
  /** For `tokenize`: the merchant's tokenization key (required there; the bearer token is not accepted). */
  tokenizationKey?: string;
  /** Retry limits; the interface's rules apply (README "Retries"). */
  retry?: Partial<RetryOptions>;
  /** Deadline of one attempt (default 30 s); a timed-out attempt counts as no answer. */
  timeoutMs?: number;
  /** Told before each retry (logging, metrics). */
  onRetry?: (event: RetryEvent) => void;
}

const segment = (value: string) => encodeURIComponent(value);
/** A filter of one or several values, as the API takes it: comma-separated. */
const listParam = (value: string | number | Array<string | number> | undefined) =>
  Array.isArray(value) ? value.join(',') : value;

/** The merchant operations of the Payment Rescue Service, with its token and retry rules. */
export class PaymentRescueClient {
  private readonly transport: Transport;
  private readonly tokens: BearerTokens;

  constructor(private readonly options: ClientOptions) {
    this.transport = new Transport({
      baseUrl: options.baseUrl,
      retry: { ...DEFAULT_RETRY, ...options.retry },
      timeoutMs: options.timeoutMs ?? 30_000,
      userAgent: `payment-rescue-client-typescript/${VERSION} node/${process.versions.node}`,
      ...(options.onRetry ? { onRetry: options.onRetry } : {}),
    });
    this.tokens = new BearerTokens(this.transport, options);
  }

  private call<T>(req: Omit<Request, 'auth'>, options?: CallOptions, auth: AuthProvider = this.tokens): Promise<T> {
    return this.transport.call<T>({ ...req, auth, ...(options?.signal ? { signal: options.signal } : {}) });
  }

  /** A POST carrying an idempotencyKey (the given one, or a new UUID kept for every retry). */
  private keyed<T>(path: string, body: { idempotencyKey?: string | undefined }, options?: CallOptions): Promise<T> {
    const idempotencyKey = body.idempotencyKey ?? randomUUID();
    return this.call<T>(
      { method: 'POST', path, body: { ...body, idempotencyKey }, idempotent: true, idempotencyKey },
      options,
    );
  }

  /** POST /v1/evaluate: analyse a declined transaction; the outcome is APPROVED, DECLINED, CHALLENGE, SUBMITTED or CAPTUREREQUIRED. */
  evaluate(request: EvaluateRequest, options?: CallOptions): Promise<ResponseBody<'evaluate'>> {
    return this.keyed('/v1/evaluate', request, options);
  }

  /** POST /v1/capture: complete an authorized (CAPTUREREQUIRED) order. */
  capture(request: CaptureRequest, options?: CallOptions): Promise<ResponseBody<'capture'>> {
    return this.keyed('/v1/capture', request, options);
  }

  readonly orders = {
    /** GET /v1/orders: one page of your orders, newest first, filtered; pass `nextCursor` as `startingAfter`. */
    list: (params: ListOrdersParams = {}, options?: CallOptions): Promise<OrderPage> =>
      this.call(
        {
          method: 'GET',
          path: '/v1/orders',
          query: {
            status: listParam(params.status),
            outcome: listParam(params.outcome),
            flow: listParam(params.flow),
            createdFrom: params.createdFrom,
            createdTo: params.createdTo,
            externalOrderId: params.externalOrderId,
            starting_after: params.startingAfter,
            limit: params.limit,
          },
          idempotent: true,
        },
        options,
      ),
    /** GET /v1/orders/{id}. */
    get: (orderId: string, options?: CallOptions): Promise<ResponseBody<'getOrder'>> =>
      this.call({ method: 'GET', path: `/v1/orders/${segment(orderId)}`, idempotent: true }, options),
    /** POST /v1/orders/{id}/cancel: void a rescue not yet captured. */
    cancel: async (orderId: string, request: CancelRequest = {}, options?: CallOptions): Promise<void> => {
      await this.keyed(`/v1/orders/${segment(orderId)}/cancel`, request, options);
    },
    /** POST /v1/orders/{external-order-id}/external-cancel: cancel by your own order id. */
    externalCancel: async (externalOrderId: string, request: CancelRequest = {}, options?: CallOptions) => {
      await this.keyed(`/v1/orders/${segment(externalOrderId)}/external-cancel`, request, options);
    },
    /** POST /v1/orders/{id}/refund: full unless `amountToRefund` is given. */
    refund: (
      orderId: string,
      request: RefundRequest = {},
      options?: CallOptions,
    ): Promise<ResponseBody<'refundOrder'>> => this.keyed(`/v1/orders/${segment(orderId)}/refund`, request, options),
  };

  readonly events = {
    /** GET /v1/events: one page, oldest first. */
    list: (params: ListEventsParams = {}, options?: CallOptions): Promise<EventPage> =>
      this.call(
        {
          method: 'GET',
          path: '/v1/events',
          query: { since: params.since, starting_after: params.startingAfter, limit: params.limit },
          idempotent: true,
        },
        options,
      ),
    /** Every event from `params` on, page after page, each once (cursor paging). */
    iterate: (params: ListEventsParams = {}, options?: CallOptions): AsyncGenerator<EventRecord> =>
      this.iterateEvents(params, options),
  };

  private async *iterateEvents(params: ListEventsParams, options?: CallOptions): AsyncGenerator<EventRecord> {
    let startingAfter = params.startingAfter;
    let since = startingAfter ? undefined : params.since;
    for (;;) {
      const page = await this.events.list({ ...params, since, startingAfter }, options);
      yield* page.data;
      if (!page.hasMore || !page.nextCursor) return;
      startingAfter = page.nextCursor;
      since = undefined;
    }
  }

  readonly webhookEndpoints = {
    create: (
      request: CreateWebhookEndpointRequest,
      options?: CallOptions,
    ): Promise<ResponseBody<'createWebhookEndpoint'>> =>
      this.call({ method: 'POST', path: '/v1/webhooks', body: request, idempotent: false }, options),
    list: (options?: CallOptions): Promise<ResponseBody<'listWebhookEndpoints'>> =>
      this.call({ method: 'GET', path: '/v1/webhooks', idempotent: true }, options),
    get: (id: string, options?: CallOptions): Promise<ResponseBody<'getWebhookEndpoint'>> =>
      this.call({ method: 'GET', path: `/v1/webhooks/${segment(id)}`, idempotent: true }, options),
    update: (
      id: string,
      request: UpdateWebhookEndpointRequest,
      options?: CallOptions,
    ): Promise<ResponseBody<'updateWebhookEndpoint'>> =>
      this.call({ method: 'PUT', path: `/v1/webhooks/${segment(id)}`, body: request, idempotent: true }, options),
    delete: (id: string, options?: CallOptions): Promise<ResponseBody<'deleteWebhookEndpoint'>> =>
      this.call({ method: 'DELETE', path: `/v1/webhooks/${segment(id)}`, idempotent: true }, options),
    /** A new secret; the old one keeps signing until `activatesAt` (default 24 h; `'now'` at once). */
    rotateSecret: (
      id: string,
      request: { activatesAt?: 'now' | string } = {},
      options?: CallOptions,
    ): Promise<ResponseBody<'rotateWebhookSecret'> & { activatesAt: string }> =>
      this.call(
        { method: 'POST', path: `/v1/webhooks/${segment(id)}/rotate-secret`, body: request, idempotent: false },
        options,
      ),
    /** POST /v1/webhooks/{id}/test: a signed test event of `event` (default order.completed). */
    sendTestEvent: (
      id: string,
      request: { event?: string } = {},
      options?: CallOptions,
    ): Promise<ResponseBody<'sendTestEvent'>> =>
      this.call(
        { method: 'POST', path: `/v1/webhooks/${segment(id)}/test`, body: request, idempotent: false },
        options,
      ),
  };

  /**
   * POST /v1/tokenize: vault a card number. Authenticates with the tokenization key (the
   * `tokenizationKey` option), never the bearer token, as the interface says. The same card gives
   * the same token, so it is retried.
   */
  tokenize(card: TokenizeRequest, options?: CallOptions): Promise<VaultedCard> {
    const key = this.options.tokenizationKey;
    if (!key) return Promise.reject(new Error('tokenize needs the tokenizationKey option (x-tokenization-key)'));
    const auth: AuthProvider = { header: async () => ({ 'x-tokenization-key': key }) };
    return this.call({ method: 'POST', path: '/v1/tokenize', body: card, idempotent: true }, options, auth);
  }
}
