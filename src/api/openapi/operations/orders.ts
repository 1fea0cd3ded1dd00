import { evaluateRequest } from '../../../domain/orders/evaluate-request';
import { captureBody, optionalKeyBody, refundBody } from '../../routes/orders';
import { outcomeBody } from '../../routes/outcome';
import { type Operation, PAYMENT_ERRORS } from '../registry';
import { captureAnswer, evaluateAnswer, order, refundAnswer } from '../schemas';

const tag = 'Orders';
const payments = { tag, auth: 'bearer', scope: 'payments' } as const;
const idempotency = ['idempotency_key_reused', 'idempotency_request_in_flight'] as const;

/** docs/orders.md. */
export const orderOperations: Operation[] = [
  {
    ...payments,
    method: 'post',
    path: '/v1/evaluate',
    summary: 'Evaluate a declined transaction',
    description:
      'Answers APPROVED, DECLINED, CHALLENGE, SUBMITTED (async MIT) or CAPTUREREQUIRED in `status`. ' +
      'A DECLINED evaluate is HTTP 200. docs/orders.md; the FlexCharge dialect: docs/compatibility.md.',
    body: evaluateRequest,
    responses: { 200: { description: 'The decision', body: evaluateAnswer } },
    errors: [
      ...PAYMENT_ERRORS,
      'malformed_json',
      'validation_failed',
      'card_number_invalid',
      'card_brand_unsupported',
      'card_expired',
      'sandbox_card_not_allowed',
      'test_card_not_allowed',
      'merchant_forbidden',
      'authorize_capability_required',
      ...idempotency,
      'order_request_mismatch',
      'order_busy',
      'rescue_unavailable',
      'order_temporarily_unavailable',
      'order_outcome_pending',
    ],
  },
  {
    ...payments,
    method: 'post',
    path: '/v1/capture',
    summary: 'Capture a CAPTUREREQUIRED order',
    body: captureBody,
    responses: { 200: { description: 'Captured', body: captureAnswer } },
    errors: [
      ...PAYMENT_ERRORS,
      'validation_failed',
      'order_not_found',
      ...idempotency,
      'order_not_capturable',
      'capture_exceeds_authorized',
      'order_busy',
      'order_outcome_pending',
    ],
  },
  {
    ...payments,
    method: 'post',
    path: '/v1/orders/:id/cancel',
    summary: 'Cancel an order',
    body: optionalKeyBody,
    responses: { 200: { description: 'Cancelled (empty body)' } },
    errors: [...PAYMENT_ERRORS, 'validation_failed', 'order_not_found', ...idempotency, 'order_not_cancellable'],
  },
  {
    ...payments,
    method: 'post',
    path: '/v1/orders/:externalOrderId/external-cancel',
    summary: "Cancel an order by the merchant's own id",
    body: optionalKeyBody,
    responses: { 200: { description: 'Cancelled (empty body)' } },
    errors: [...PAYMENT_ERRORS, 'validation_failed', 'order_not_found', ...idempotency, 'order_not_cancellable'],
  },
  {
    ...payments,
    method: 'post',
    path: '/v1/orders/:id/refund',
    summary: 'Refund a completed order, fully or partly',
    body: refundBody,
    responses: { 200: { description: 'Refunded', body: refundAnswer } },
    errors: [
      ...PAYMENT_ERRORS,
      'validation_failed',
      'idempotency_key_required',
      'order_not_found',
      ...idempotency,
      'refund_exceeds_captured',
      'order_not_refundable',
      'order_busy',
      'order_outcome_pending',
    ],
  },
  {
    ...payments,
    method: 'get',
    path: '/v1/orders/:id',
    summary: 'Look up an order',
    responses: { 200: { description: 'The order', body: order } },
    errors: [...PAYMENT_ERRORS, 'order_not_found'],
  },
  {
    ...payments,
    method: 'post',
    path: '/v1/outcome',
    summary: 'Look up an order (deprecated alias of GET /v1/orders/{id})',
    deprecated: true,
    body: outcomeBody,
    responses: { 200: { description: 'The order', body: order } },
    errors: [...PAYMENT_ERRORS, 'validation_failed', 'order_not_found'],
  },
];
