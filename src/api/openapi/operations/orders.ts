import { evaluateRequest } from '../../../domain/orders/evaluate-request';
import { captureBody, optionalKeyBody, refundBody } from '../../routes/orders';
import { outcomeBody } from '../../routes/outcome';
import * as example from '../examples/orders';
import { BODY_ERRORS, type Operation, PAYMENT_ERRORS } from '../registry';
import { captureAnswer, evaluateAnswer, order, refundAnswer } from '../schemas';

const tag = 'Orders';
const payments = { tag, auth: 'bearer', scope: 'payments' } as const;
const idempotency = ['idempotency_key_reused', 'idempotency_request_in_flight'] as const;
/** A command on an order that could not finish now: retried with the same key (docs/errors.md). */
const commandPending = ['order_busy', 'order_outcome_pending', 'order_temporarily_unavailable'] as const;
/** Cancel and external-cancel: one operation by two addresses (docs/orders.md). */
const cancelErrors: Operation['errors'] = [
  ...PAYMENT_ERRORS,
  ...BODY_ERRORS,
  'validation_failed',
  'order_not_found',
  ...idempotency,
  'order_not_cancellable',
  'give_back_refused_by_processor',
  ...commandPending,
];

/** docs/orders.md. */
export const orderOperations: Operation[] = [
  {
    ...payments,
    method: 'post',
    path: '/v1/evaluate',
    operationId: 'evaluate',
    idempotent: true,
    summary: 'Evaluate a declined transaction',
    description:
      'Answers APPROVED, DECLINED, CHALLENGE, SUBMITTED (async MIT) or CAPTUREREQUIRED in `status`. ' +
      'A DECLINED evaluate is HTTP 200. docs/orders.md; the FlexCharge dialect: docs/compatibility.md.',
    body: evaluateRequest,
    example: example.evaluateRequest,
    responses: { 200: { description: 'The decision', body: evaluateAnswer, example: example.evaluateAnswer } },
    errors: [
      ...PAYMENT_ERRORS,
      ...BODY_ERRORS,
      'validation_failed',
      'card_number_invalid',
      'card_brand_unsupported',
      'card_expired',
      'sandbox_card_not_allowed',
      'test_card_not_allowed',
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
    operationId: 'capture',
    idempotent: true,
    summary: 'Capture a CAPTUREREQUIRED order',
    body: captureBody,
    example: example.captureRequest,
    responses: { 200: { description: 'Captured', body: captureAnswer, example: example.captureAnswer } },
    errors: [
      ...PAYMENT_ERRORS,
      ...BODY_ERRORS,
      'validation_failed',
      'order_not_found',
      ...idempotency,
      'order_not_capturable',
      'capture_exceeds_authorized',
      'capture_refused_by_processor',
      ...commandPending,
    ],
  },
  {
    ...payments,
    method: 'post',
    path: '/v1/orders/:id/cancel',
    operationId: 'cancelOrder',
    idempotent: true,
    summary: 'Cancel an order',
    body: optionalKeyBody,
    example: example.cancelRequest,
    responses: { 200: { description: 'Cancelled (empty body)' } },
    errors: cancelErrors,
  },
  {
    ...payments,
    method: 'post',
    path: '/v1/orders/:externalOrderId/external-cancel',
    operationId: 'externalCancelOrder',
    idempotent: true,
    summary: "Cancel an order by the merchant's own id",
    body: optionalKeyBody,
    example: example.cancelRequest,
    responses: { 200: { description: 'Cancelled (empty body)' } },
    errors: cancelErrors,
  },
  {
    ...payments,
    method: 'post',
    path: '/v1/orders/:id/refund',
    operationId: 'refundOrder',
    idempotent: true,
    summary: 'Refund a completed order, fully or partly',
    body: refundBody,
    example: example.refundRequest,
    responses: { 200: { description: 'Refunded', body: refundAnswer, example: example.refundAnswer } },
    errors: [
      ...PAYMENT_ERRORS,
      ...BODY_ERRORS,
      'validation_failed',
      'idempotency_key_required',
      'order_not_found',
      ...idempotency,
      'refund_exceeds_captured',
      'refund_refused_by_processor',
      'order_not_refundable',
      ...commandPending,
    ],
  },
  {
    ...payments,
    method: 'get',
    path: '/v1/orders/:id',
    operationId: 'getOrder',
    summary: 'Look up an order',
    description:
      'Also takes a dashboard link token (`authorization: Bearer dl1.…`, docs/dashboard.md) as a read-only credential of its merchant.',
    responses: { 200: { description: 'The order', body: order, example: example.orderLookup } },
    errors: [...PAYMENT_ERRORS, 'dashboard_link_invalid', 'dashboard_link_expired', 'order_not_found'],
  },
  {
    ...payments,
    method: 'post',
    path: '/v1/outcome',
    operationId: 'getOutcome',
    summary: 'Look up an order (deprecated alias of GET /v1/orders/{id})',
    deprecated: true,
    body: outcomeBody,
    example: example.outcomeRequest,
    responses: { 200: { description: 'The order', body: order, example: example.orderLookup } },
    errors: [...PAYMENT_ERRORS, 'validation_failed', 'order_not_found'],
  },
];
