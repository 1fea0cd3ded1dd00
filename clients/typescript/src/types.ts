import type { PaymentRescueApi } from './generated/openapi';
import type { WebhookEnvelope } from './webhooks';

export type {
  AccessToken,
  CaptureAnswer,
  EvaluateAnswer,
  Order,
  OrderPage,
  RefundAnswer,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
} from './generated/openapi';

export type Operations = PaymentRescueApi['operations'];
/** The request body of an operation, by its operationId. */
export type RequestBody<K extends keyof Operations> = Operations[K] extends { requestBody?: infer B } ? B : never;
/** The success answer of an operation, by its operationId. */
export type ResponseBody<K extends keyof Operations> = Operations[K]['response'];
/** The body with `idempotencyKey` optional: the client makes one (a UUID) per call when absent. */
export type WithIdempotencyKey<B> = Omit<B, 'idempotencyKey'> & { idempotencyKey?: string };

export type EvaluateRequest = WithIdempotencyKey<RequestBody<'evaluate'>>;
export type CaptureRequest = WithIdempotencyKey<RequestBody<'capture'>>;
export type CancelRequest = NonNullable<RequestBody<'cancelOrder'>>;
export type RefundRequest = NonNullable<RequestBody<'refundOrder'>>;
export type TokenizeRequest = RequestBody<'tokenize'>;
export type CreateWebhookEndpointRequest = RequestBody<'createWebhookEndpoint'>;
export type UpdateWebhookEndpointRequest = NonNullable<RequestBody<'updateWebhookEndpoint'>>;

/** Per-call options. */
export interface CallOptions {
  /** Aborts the call, its retries and their waits. */
  signal?: AbortSignal;
}

/**
 * One event of GET /v1/events. The document states only `{ data, next }`; these fields are the
 * route's (src/api/routes/events.ts, docs/webhooks.md "Cursor paging").
 */
export type EventRecord = Omit<WebhookEnvelope, 'IdempotencyKey' | 'IsResent'> & { EventId: string };

export interface EventPage {
  data: EventRecord[];
  /** Pass back as `startingAfter` for the next page: every event then comes exactly once. */
  nextCursor: string | null;
  hasMore: boolean;
  /** The older paging (an instant; events at it repeat). Prefer `nextCursor`. */
  next: string | null;
}

export interface ListEventsParams {
  /** An ISO 8601 instant or a `nextCursor`. */
  since?: string;
  /** A `nextCursor` from the previous page. */
  startingAfter?: string;
  /** 1 to 500; default 100. */
  limit?: number;
}

/** Filters and paging of GET /v1/orders (docs/orders.md); a list is sent comma-separated. */
export interface ListOrdersParams {
  /** Status names (`Completed`), lookup words (`SUCCESS`) or numbers (`7`). */
  status?: string | number | Array<string | number>;
  /** APPROVED, DECLINED, CHALLENGE, SUBMITTED, CAPTUREREQUIRED or EXPIRED. */
  outcome?: string | string[];
  /** CIT, SYNC_MIT or ASYNC_MIT. */
  flow?: string | string[];
  /** ISO 8601; inclusive. */
  createdFrom?: string;
  /** ISO 8601; exclusive. */
  createdTo?: string;
  /** Your own order id, exactly. */
  externalOrderId?: string;
  /** A `nextCursor` from the previous page. */
  startingAfter?: string;
  /** 1 to 500; default 100. */
  limit?: number;
}

/** A vaulted card (POST /v1/tokenize). The document leaves the answer open; these are the route's fields. */
export interface VaultedCard {
  token: string;
  [field: string]: unknown;
}
