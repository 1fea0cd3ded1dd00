import { z } from 'zod';
import * as events from '../../routes/events';
import * as webhooks from '../../routes/webhooks';
import { BEARER_ERRORS, type Operation } from '../registry';
import { object, webhookEndpoint, webhookEndpointWithSecret } from '../schemas';

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
    summary: 'Create a webhook endpoint',
    body: webhooks.createBody,
    responses: { 201: { description: 'The endpoint and its secret (shown once)', body: webhookEndpointWithSecret } },
    errors: [...BEARER_ERRORS, ...urlErrors, 'webhook_endpoint_limit_reached'],
  },
  {
    ...hooks,
    method: 'get',
    path: '/v1/webhooks',
    summary: 'List webhook endpoints',
    responses: { 200: { description: 'The endpoints', body: z.object({ data: z.array(webhookEndpoint) }) } },
    errors: [...BEARER_ERRORS],
  },
  {
    ...hooks,
    method: 'get',
    path: '/v1/webhooks/:id',
    summary: 'Get a webhook endpoint',
    responses: { 200: { description: 'The endpoint', body: webhookEndpoint } },
    errors: [...endpointErrors],
  },
  {
    ...hooks,
    method: 'put',
    path: '/v1/webhooks/:id',
    summary: 'Change, enable or disable a webhook endpoint',
    body: webhooks.updateBody,
    responses: { 200: { description: 'The endpoint', body: webhookEndpoint } },
    errors: [...endpointErrors, ...urlErrors],
  },
  {
    ...hooks,
    method: 'delete',
    path: '/v1/webhooks/:id',
    summary: 'Delete a webhook endpoint',
    responses: { 200: { description: 'Deleted', body: z.object({ id: z.uuid(), deleted: z.literal(true) }) } },
    errors: [...endpointErrors],
  },
  {
    ...hooks,
    method: 'post',
    path: '/v1/webhooks/:id/rotate-secret',
    summary: "Rotate a webhook endpoint's signing secret",
    body: webhooks.rotateSecretBody,
    responses: { 200: { description: 'The endpoint and its new secret', body: webhookEndpointWithSecret } },
    errors: [...endpointErrors],
  },
  {
    ...hooks,
    method: 'get',
    path: '/v1/webhooks/:id/deliveries',
    summary: "An endpoint's delivery log, newest first",
    query: z.object({ limit: z.coerce.number().int().min(1).max(500).default(100).optional() }),
    responses: { 200: { description: 'Deliveries and their attempts', body: object('`{ endpointId, data }`.') } },
    errors: [...endpointErrors, 'validation_failed'],
  },
  {
    ...hooks,
    method: 'get',
    path: '/v1/events',
    summary: "The owner's events, oldest first",
    query: events.listQuery,
    responses: { 200: { description: 'A page of events and the next cursor', body: object('`{ data, next }`.') } },
    errors: [...BEARER_ERRORS, 'validation_failed'],
  },
  {
    ...hooks,
    method: 'post',
    path: '/v1/events/:eventId/resend',
    summary: 'Deliver an event again',
    responses: { 202: { description: 'Queued: `IsResent: true`, same IdempotencyKey', body: object('The resend.') } },
    errors: [...BEARER_ERRORS, 'event_not_found'],
  },
];
