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
  unsupported_grant_type: {
    id: '400003',
    status: 400,
    message: 'grant_type must be client_credentials.',
    retry: 'after-fix',
  },
  oauth_invalid_request: {
    id: '400004',
    status: 400,
    message: 'The token request is missing grant_type or has conflicting client credentials.',
    retry: 'after-fix',
  },
  idempotency_key_required: {
    id: '400005',
    status: 400,
    message: 'A partial refund needs an idempotencyKey, so a retry cannot credit twice.',
    retry: 'after-fix',
  },
  card_number_invalid: {
    id: '400010',
    status: 400,
    message: 'The card number is not a valid card number (digits, length or check digit).',
    retry: 'after-fix',
  },
  card_brand_unsupported: { id: '400011', status: 400, message: 'The card brand is not supported.', retry: 'no' },
  card_expired: { id: '400012', status: 400, message: 'The card has expired.', retry: 'no' },
  sandbox_card_not_allowed: {
    id: '400013',
    status: 400,
    message: 'The sandbox accepts only the whitelisted test cards (docs/sandbox.md).',
    retry: 'after-fix',
  },
  webhook_url_not_https: {
    id: '400040',
    status: 400,
    message: 'Webhook endpoints must be https:// URLs.',
    retry: 'after-fix',
  },
  unknown_event_name: {
    id: '400041',
    status: 400,
    message: 'Unknown event name; see docs/webhooks.md for the event list, or use "*".',
    retry: 'after-fix',
  },
  webhook_url_not_allowed: {
    id: '400042',
    status: 400,
    message: 'The webhook URL resolves to a private, loopback or reserved address.',
    retry: 'after-fix',
  },
  invalid_client: {
    id: '401001',
    status: 401,
    message: 'Client authentication failed: unknown client, wrong secret or revoked key.',
    retry: 'after-fix',
  },
  invalid_token: {
    id: '401002',
    status: 401,
    message: 'A valid bearer access token is required (authorization: Bearer <token>).',
    retry: 'refresh-token-once',
  },
  token_expired: {
    id: '401003',
    status: 401,
    message: 'The access token has expired. Obtain a new one from /v1/oauth2/token and retry once.',
    retry: 'refresh-token-once',
  },
  invalid_tokenization_key: {
    id: '401004',
    status: 401,
    message: 'A valid tokenization key is required in the x-tokenization-key header.',
    retry: 'after-fix',
  },
  invalid_admin_token: {
    id: '401010',
    status: 401,
    message: 'This operator endpoint needs the admin credential (authorization: Bearer <ADMIN_API_TOKEN>).',
    retry: 'after-fix',
  },
  merchant_forbidden: {
    id: '403001',
    status: 403,
    message: 'This credential may not act for that merchant.',
    retry: 'no',
  },
  insufficient_scope: {
    id: '403002',
    status: 403,
    message: 'This API key does not have the scope this operation needs.',
    retry: 'no',
  },
  authorize_capability_required: {
    id: '403003',
    status: 403,
    message: 'transactionType AUTHORIZATION needs the authorize capability on the merchant account.',
    retry: 'no',
  },
  widget_origin_forbidden: {
    id: '403010',
    status: 403,
    message: "The page's origin is not one of this site's allowed origins.",
    retry: 'no',
  },
  route_not_found: { id: '404001', status: 404, message: 'No resource exists at this path.', retry: 'no' },
  api_key_not_found: { id: '404002', status: 404, message: 'The specified API key could not be located.', retry: 'no' },
  order_not_found: { id: '404003', status: 404, message: 'The specified order could not be located.', retry: 'no' },
  site_not_found: {
    id: '404010',
    status: 404,
    message: 'No site with this siteId belongs to this merchant (MID).',
    retry: 'no',
  },
  webhook_endpoint_not_found: {
    id: '404020',
    status: 404,
    message: 'The specified webhook endpoint could not be located.',
    retry: 'no',
  },
  event_not_found: { id: '404021', status: 404, message: 'The specified event could not be located.', retry: 'no' },
  application_not_found: {
    id: '404022',
    status: 404,
    message: 'The specified application could not be located.',
    retry: 'no',
  },
  method_not_allowed: {
    id: '405001',
    status: 405,
    message: 'This method is not allowed on this resource.',
    retry: 'no',
  },
  payload_too_large: { id: '413001', status: 413, message: 'The request body is too large.', retry: 'after-fix' },
  widget_payload_too_large: {
    id: '413010',
    status: 413,
    message: 'The widget signals batch is over 16 KB.',
    retry: 'after-fix',
  },
  unsupported_media_type: {
    id: '415001',
    status: 415,
    message: 'The request body must be JSON (content-type: application/json).',
    retry: 'after-fix',
  },
  rate_limited: {
    id: '429001',
    status: 429,
    message: 'Too many requests for this merchant. Retry after the Retry-After period.',
    retry: 'retry-after',
  },
  widget_rate_limited: {
    id: '429010',
    status: 429,
    message: 'Too many widget requests for this site or senseKey. Retry after the Retry-After period.',
    retry: 'retry-after',
  },
  api_key_revoked: {
    id: '409001',
    status: 409,
    message: 'The API key is revoked and can no longer be changed.',
    retry: 'no',
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
  order_not_capturable: {
    id: '409004',
    status: 409,
    message: 'The order is not waiting for a capture (or its capture window has closed).',
    retry: 'no',
  },
  order_not_cancellable: {
    id: '409005',
    status: 409,
    message: 'The order cannot be cancelled in its current status.',
    retry: 'no',
  },
  refund_exceeds_captured: {
    id: '409006',
    status: 409,
    message: 'The refund would exceed the captured amount not yet refunded.',
    retry: 'no',
  },
  order_not_refundable: {
    id: '409007',
    status: 409,
    message: 'Only a completed order can be refunded, within 180 days of completion.',
    retry: 'no',
  },
  capture_exceeds_authorized: {
    id: '409008',
    status: 409,
    message: 'The capture amount exceeds the authorized amount.',
    retry: 'no',
  },
  order_busy: {
    id: '409009',
    status: 409,
    message: 'Another command on this order is still running. Retry shortly (with the same idempotencyKey).',
    retry: 'backoff',
  },
  order_request_mismatch: {
    id: '409010',
    status: 409,
    message:
      'A further evaluate for this order has a different amount, currency or card than the order, and is not a new attempt (a higher attemptCount): it would not be the same payment. Send it under a new orderId, or as a new attempt.',
    retry: 'no',
  },
  application_transition_not_allowed: {
    id: '409020',
    status: 409,
    message: 'The application cannot make this transition from its current status.',
    retry: 'no',
  },
  order_not_in_challenge: {
    id: '409021',
    status: 409,
    message: 'The order is not waiting for a cardholder challenge.',
    retry: 'no',
  },
  chargeback_not_reversible: {
    id: '409022',
    status: 409,
    message: 'Only a received chargeback can be reversed.',
    retry: 'no',
  },
  webhook_endpoint_limit_reached: {
    id: '409030',
    status: 409,
    message: 'This owner already has the maximum number of webhook endpoints (docs/webhooks.md); delete one first.',
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
  order_temporarily_unavailable: {
    id: '503010',
    status: 503,
    message:
      'The order could not be decided in time (a dependency did not answer); nothing was decided. Retry after the Retry-After period with the same idempotencyKey.',
    retry: 'retry-after',
  },
} as const satisfies Record<string, ErrorDefinition>;

export type ErrorName = keyof typeof ERROR_CATALOGUE;
