import * as apiKeys from '../../routes/api-keys';
import { apiKey, apiKeyList, apiKeyMaybeWithSecret, apiKeyWithSecret } from '../answers/keys';
import * as example from '../examples/identity';
import { health, liveness, readiness, workerHealth } from '../health-schemas';
import { BEARER_ERRORS, type Operation } from '../registry';
import { accessToken, tokenRequest } from '../schemas';

const keys = { tag: 'API keys', auth: 'bearer', scope: 'api_keys' } as const;
const keyErrors = [...BEARER_ERRORS, 'merchant_forbidden', 'api_key_not_found'] as const;

/** Health, tokens and API keys (docs/authentication.md, docs/deployment.md#probes). */
export const identityOperations: Operation[] = [
  {
    method: 'get',
    path: '/v1/health',
    operationId: 'getHealth',
    tag: 'Health',
    auth: 'none',
    summary: 'Database and Temporal reachable',
    responses: {
      200: { description: 'Both answer', body: health, example: example.health },
      503: { description: 'One is down', body: health, example: example.unhealthy },
    },
    errors: ['rate_limited'],
  },
  {
    method: 'get',
    path: '/v1/health/live',
    operationId: 'getLiveness',
    tag: 'Health',
    auth: 'none',
    summary: 'Liveness: the process answers',
    responses: { 200: { description: 'Alive', body: liveness, example: example.liveness } },
    errors: [],
  },
  {
    method: 'get',
    path: '/v1/health/ready',
    operationId: 'getReadiness',
    tag: 'Health',
    auth: 'none',
    summary: 'Readiness: the database answers (workers and Temporal are not asked)',
    responses: {
      200: { description: 'Ready', body: readiness, example: example.readiness },
      503: { description: 'The database does not answer', body: readiness, example: example.notReady },
    },
    errors: ['rate_limited'],
  },
  {
    method: 'get',
    path: '/v1/health/workers',
    operationId: 'getWorkerHealth',
    tag: 'Health',
    auth: 'none',
    summary: 'Workers: one of the order task queue heartbeats and polls (for monitoring, not readiness)',
    responses: {
      200: { description: 'A worker is live', body: workerHealth, example: example.workerHealth },
      503: {
        description: 'No live worker: evaluates wait and answer 503 503010',
        body: workerHealth,
        example: example.noWorker,
      },
    },
    errors: ['rate_limited'],
  },
  {
    method: 'post',
    path: '/v1/oauth2/token',
    operationId: 'createAccessToken',
    tag: 'Authentication',
    auth: 'clientCredentials',
    summary: 'Get a bearer access token (client credentials)',
    description:
      'Form or JSON body; client credentials (an API key id and secret) in the body or as HTTP Basic. ' +
      'Errors keep the RFC 6749 shape. The OAuth2 security scheme of the other operations gets its token here.',
    body: tokenRequest,
    example: example.tokenRequest,
    form: true,
    responses: { 200: { description: 'A token', body: accessToken, example: example.accessToken } },
    errors: ['unsupported_grant_type', 'oauth_invalid_request', 'invalid_client', 'rate_limited', 'internal_error'],
  },
  {
    ...keys,
    method: 'post',
    path: '/v1/api-keys',
    operationId: 'createApiKey',
    summary: 'Create an API key',
    body: apiKeys.createBody,
    example: example.createApiKeyRequest,
    responses: {
      201: {
        description: 'The key with its secret (shown once)',
        body: apiKeyWithSecret,
        example: example.apiKeyWithSecret,
      },
    },
    errors: [...keyErrors, 'validation_failed'],
  },
  {
    ...keys,
    method: 'get',
    path: '/v1/api-keys',
    operationId: 'listApiKeys',
    summary: "List a merchant's API keys",
    query: apiKeys.listQuery,
    responses: { 200: { description: 'The keys', body: apiKeyList, example: example.apiKeyList } },
    errors: [...keyErrors, 'validation_failed'],
  },
  {
    ...keys,
    method: 'get',
    path: '/v1/api-keys/:id',
    operationId: 'getApiKey',
    summary: 'Get an API key',
    responses: { 200: { description: 'The key', body: apiKey, example: example.apiKey } },
    errors: [...keyErrors],
  },
  {
    ...keys,
    method: 'put',
    path: '/v1/api-keys/:id',
    operationId: 'updateApiKey',
    summary: 'Change or rotate an API key',
    body: apiKeys.updateBody,
    example: example.updateApiKeyRequest,
    responses: {
      200: {
        description: 'The key (with `secret` when rotated)',
        body: apiKeyMaybeWithSecret,
        example: example.rotatedApiKey,
      },
    },
    errors: [...keyErrors, 'validation_failed', 'api_key_revoked'],
  },
  {
    ...keys,
    method: 'delete',
    path: '/v1/api-keys/:id',
    operationId: 'revokeApiKey',
    summary: 'Revoke an API key',
    responses: { 200: { description: 'Revoked', body: apiKey, example: example.revokedApiKey } },
    errors: [...keyErrors],
  },
];
