import { z } from 'zod';
import * as events from '../../routes/events';
import * as webhooks from '../../routes/webhooks';
import { deliveryLog, endpointDeleted, endpointList, eventPage, eventResent, rotatedEndpoint } from '../answers/events';
import * as example from '../examples/webhooks';
import { BEARER_ERRORS, type Operation } from '../registry';
import { webhookEndpoint, webhookEndpointWithSecret } from '../schemas';

const hooks = { tag: 'Webhooks', auth: 'bearer', scope: 'webhooks' } as const;
const endpointErrors = [...BEARER_ERRORS, 'webhook_endpoint_not_found'] as const;
const urlErrors = [
  'validation_failed',
  'webhook_url_not_https',
  'unknown_event_name',
  'webhook_url_not_allowed',
] as const;

/** Webhook endpoints and events (docs/webhooks.md). */
export const webhookOperations: Operation[] = [
  {
    ...hooks,
    method: 'post',
    path: '/v1/webhooks',
    operationId: 'createWebhookEndpoint',
    summary: 'Create a webhook endpoint',
    body: webhooks.createBody,
    example: example.createEndpointRequest,
    responses: {
      201: {
        description: 'The endpoint and its secret (shown once)',
        body: webhookEndpointWithSecret,
        example: example.endpointWithSecret,
      },
    },
    errors: [...BEARER_ERRORS, ...urlErrors, 'webhook_endpoint_limit_reached'],
  },
  {
    ...hooks,
    method: 'get',
    path: '/v1/webhooks',
    operationId: 'listWebhookEndpoints',
    summary: 'List webhook endpoints',
    responses: { 200: { description: 'The endpoints', body: endpointList, example: example.endpointList } },
    errors: [...BEARER_ERRORS],
  },
  {
    ...hooks,
    method: 'get',
    path: '/v1/webhooks/:id',
    operationId: 'getWebhookEndpoint',
    summary: 'Get a webhook endpoint',
    responses: { 200: { description: 'The endpoint', body: webhookEndpoint, example: example.endpoint } },
    errors: [...endpointErrors],
  },
  {
    ...hooks,
    method: 'put',
    path: '/v1/webhooks/:id',
    operationId: 'updateWebhookEndpoint',
    summary: 'Change, enable or disable a webhook endpoint',
    body: webhooks.updateBody,
    example: example.updateEndpointRequest,
    responses: { 200: { description: 'The endpoint', body: webhookEndpoint, example: example.updatedEndpoint } },
    errors: [...endpointErrors, ...urlErrors],
  },
  {
    ...hooks,
    method: 'delete',
    path: '/v1/webhooks/:id',
    operationId: 'deleteWebhookEndpoint',
    summary: 'Delete a webhook endpoint',
    responses: { 200: { description: 'Deleted', body: endpointDeleted, example: example.deleted } },
    errors: [...endpointErrors],
  },
  {
    ...hooks,
    method: 'post',
    path: '/v1/webhooks/:id/rotate-secret',
    operationId: 'rotateWebhookSecret',
    summary: "Rotate a webhook endpoint's signing secret",
    body: webhooks.rotateSecretBody,
    example: example.rotateRequest,
    responses: {
      200: { description: 'The endpoint and its new secret', body: rotatedEndpoint, example: example.rotated },
    },
    errors: [...endpointErrors],
  },
  {
    ...hooks,
    method: 'get',
    path: '/v1/webhooks/:id/deliveries',
    operationId: 'listWebhookDeliveries',
    summary: "An endpoint's delivery log, newest first",
    query: z.object({ limit: z.coerce.number().int().min(1).max(500).default(100).optional() }),
    responses: {
      200: { description: 'Deliveries and their attempts', body: deliveryLog, example: example.deliveryLog },
    },
    errors: [...endpointErrors, 'validation_failed'],
  },
  {
    ...hooks,
    method: 'get',
    path: '/v1/events',
    operationId: 'listEvents',
    summary: "The owner's events, oldest first",
    query: events.listQuery,
    responses: {
      200: { description: 'A page of events and the next cursor', body: eventPage, example: example.eventPage },
    },
    errors: [...BEARER_ERRORS, 'validation_failed'],
  },
  {
    ...hooks,
    method: 'post',
    path: '/v1/events/:eventId/resend',
    operationId: 'resendEvent',
    summary: 'Deliver an event again',
    responses: {
      202: { description: 'Queued: `IsResent: true`, same IdempotencyKey', body: eventResent, example: example.resent },
    },
    errors: [...BEARER_ERRORS, 'event_not_found'],
  },
];
