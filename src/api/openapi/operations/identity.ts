import * as apiKeys from '../../routes/api-keys';
import { BEARER_ERRORS, type Operation } from '../registry';
import { accessToken, health, liveness, object, readiness, tokenRequest, workerHealth } from '../schemas';

const keys = { tag: 'API keys', auth: 'bearer', scope: 'api_keys' } as const;
const keyErrors = [...BEARER_ERRORS, 'merchant_forbidden', 'api_key_not_found'] as const;

/** Health, tokens and API keys (docs/authentication.md, docs/deployment.md#probes). */
export const identityOperations: Operation[] = [
  {
    method: 'get',
    path: '/v1/health',
    tag: 'Health',
    auth: 'none',
    summary: 'Database and Temporal reachable',
    responses: { 200: { description: 'Both answer', body: health }, 503: { description: 'One is down', body: health } },
    errors: ['rate_limited'],
  },
  {
    method: 'get',
    path: '/v1/health/live',
    tag: 'Health',
    auth: 'none',
    summary: 'Liveness: the process answers',
    responses: { 200: { description: 'Alive', body: liveness } },
    errors: [],
  },
  {
    method: 'get',
    path: '/v1/health/ready',
    tag: 'Health',
    auth: 'none',
    summary: 'Readiness: the database answers (workers and Temporal are not asked)',
    responses: {
      200: { description: 'Ready', body: readiness },
      503: { description: 'The database does not answer', body: readiness },
    },
    errors: ['rate_limited'],
  },
  {
    method: 'get',
    path: '/v1/health/workers',
    tag: 'Health',
    auth: 'none',
    summary: 'Workers: one of the order task queue heartbeats and polls (for monitoring, not readiness)',
    responses: {
      200: { description: 'A worker is live', body: workerHealth },
      503: { description: 'No live worker: evaluates wait and answer 503 503010', body: workerHealth },
    },
    errors: ['rate_limited'],
  },
  {
    method: 'post',
    path: '/v1/oauth2/token',
    tag: 'Authentication',
    auth: 'clientCredentials',
    summary: 'Get a bearer access token (client credentials)',
    description: 'Form or JSON body; client credentials in the body or as HTTP Basic. Errors keep the RFC 6749 shape.',
    body: tokenRequest,
    form: true,
    responses: { 200: { description: 'A token', body: accessToken } },
    errors: ['unsupported_grant_type', 'oauth_invalid_request', 'invalid_client', 'rate_limited', 'internal_error'],
  },
  {
    ...keys,
    method: 'post',
    path: '/v1/api-keys',
    summary: 'Create an API key',
    body: apiKeys.createBody,
    responses: {
      201: { description: 'The key with its secret (shown once)', body: object('The API key and `secret`.') },
    },
    errors: [...keyErrors, 'validation_failed'],
  },
  {
    ...keys,
    method: 'get',
    path: '/v1/api-keys',
    summary: "List a merchant's API keys",
    query: apiKeys.listQuery,
    responses: { 200: { description: 'The keys', body: object('`{ mid, data: [API key] }`.') } },
    errors: [...keyErrors, 'validation_failed'],
  },
  {
    ...keys,
    method: 'get',
    path: '/v1/api-keys/:id',
    summary: 'Get an API key',
    responses: { 200: { description: 'The key', body: object('The API key.') } },
    errors: [...keyErrors],
  },
  {
    ...keys,
    method: 'put',
    path: '/v1/api-keys/:id',
    summary: 'Change or rotate an API key',
    body: apiKeys.updateBody,
    responses: { 200: { description: 'The key (with `secret` when rotated)', body: object('The API key.') } },
    errors: [...keyErrors, 'validation_failed', 'api_key_revoked'],
  },
  {
    ...keys,
    method: 'delete',
    path: '/v1/api-keys/:id',
    summary: 'Revoke an API key',
    responses: { 200: { description: 'Revoked', body: object('The revoked API key.') } },
    errors: [...keyErrors],
  },
];
