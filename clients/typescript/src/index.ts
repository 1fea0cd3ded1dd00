export { type ClientOptions, PaymentRescueClient, VERSION } from './client';
export { type CallContext, type ErrorBody, PaymentRescueError, PaymentRescueNetworkError } from './errors';
export type { PaymentRescueApi } from './generated/openapi';
export { DEFAULT_RETRY, type RetryOptions } from './retry-policy';
export type { RetryEvent } from './transport';
export type * from './types';
export {
  DEFAULT_TOLERANCE_MS,
  parse,
  type VerifyFailure,
  type VerifyInput,
  verify,
  type WebhookEnvelope,
  type WebhookEnvelopes,
  type WebhookEventName,
  type WebhookHeaders,
  WebhookVerificationError,
  webhooks,
} from './webhooks';
