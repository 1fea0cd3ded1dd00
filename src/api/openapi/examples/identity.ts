import { API_KEY_ID, CREATED_AT, MID, PID, UPDATED_AT } from './values';

/** Examples of health, tokens and API keys (docs/authentication.md). */
const now = '2025-03-14T09:30:00.000Z';

export const health = {
  status: 'ok',
  environment: 'sandbox',
  version: '1.0.0',
  buildId: '1.0.0',
  checks: { database: { status: 'ok', latencyMs: 2 }, temporal: { status: 'ok', latencyMs: 4 } },
  time: now,
};
export const unhealthy = {
  ...health,
  status: 'unavailable',
  checks: { ...health.checks, temporal: { status: 'down', latencyMs: 2000 } },
};
export const liveness = { status: 'ok', time: now };
export const readiness = {
  status: 'ok',
  environment: 'sandbox',
  checks: { database: { status: 'ok', latencyMs: 2 } },
  time: now,
};
export const notReady = {
  ...readiness,
  status: 'unavailable',
  checks: { database: { status: 'down', latencyMs: 2000 } },
};
export const workerHealth = {
  status: 'ok',
  environment: 'sandbox',
  checks: { worker: { status: 'ok', latencyMs: 5, taskQueue: 'orders', pollers: 2, heartbeat: true } },
  time: now,
};
export const noWorker = {
  ...workerHealth,
  status: 'unavailable',
  checks: { worker: { status: 'down', latencyMs: 5, taskQueue: 'orders', pollers: 0, heartbeat: false } },
};

export const tokenRequest = {
  grant_type: 'client_credentials',
  client_id: API_KEY_ID,
  client_secret: 'sk_sandbox_Xh3kP9vQ2mW7rT5yN8bL4cF6dJ1gA0sE2uI9oK3zV7w',
  scope: 'payments webhooks',
};
export const accessToken = {
  access_token: 'at_Qm9yZ2V0IG1lIG5vdDogdGhpcyBpcyBhbiBleGFtcGxlIQ',
  token_type: 'Bearer',
  expires_in: 3600,
  scope: 'payments webhooks',
};

export const createApiKeyRequest = {
  mid: MID,
  name: 'Checkout server',
  description: 'Evaluates declines from the web checkout',
  scopes: ['payments', 'webhooks'],
};
export const apiKey = {
  id: API_KEY_ID,
  clientId: API_KEY_ID,
  ownerType: 'merchant',
  pid: PID,
  mid: MID,
  name: 'Checkout server',
  description: 'Evaluates declines from the web checkout',
  scopes: ['payments', 'webhooks'],
  status: 'active',
  secretHint: '...z7Vw',
  previousSecretExpiresAt: null,
  createdAt: CREATED_AT,
  updatedAt: CREATED_AT,
  revokedAt: null,
};
export const apiKeyWithSecret = { ...apiKey, secret: tokenRequest.client_secret };
export const apiKeyList = { mid: MID, data: [apiKey] };
export const updateApiKeyRequest = { rotateSecret: true };
export const rotatedApiKey = {
  ...apiKey,
  secretHint: '...p4Qe',
  previousSecretExpiresAt: '2025-03-15T09:27:02.114Z',
  updatedAt: UPDATED_AT,
  secret: 'sk_sandbox_Bv8nM2xC5zL1kJ7hG4fD9sA3qW6eR0tY8uI2oP5aS4p4Qe',
};
export const revokedApiKey = { ...apiKey, status: 'revoked', updatedAt: UPDATED_AT, revokedAt: UPDATED_AT };
