import type { ErrorDefinition } from './definition';

/** Credentials: the token endpoint, bearer tokens, API keys, tokenization keys, the admin token. */
export const AUTH_ERRORS = {
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
  dashboard_link_invalid: {
    id: '401005',
    status: 401,
    message: 'This dashboard link is not valid. Ask your backend for a new link.',
    retry: 'after-fix',
  },
  dashboard_link_expired: {
    id: '401006',
    status: 401,
    message: 'This dashboard link has expired. Ask your backend for a new link.',
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
  dashboard_closed: {
    id: '403004',
    status: 403,
    message: 'The dashboard is closed on this deployment (no DASHBOARD_LINK_SECRET).',
    retry: 'no',
  },
  api_key_not_found: { id: '404002', status: 404, message: 'The specified API key could not be located.', retry: 'no' },
  api_key_revoked: {
    id: '409001',
    status: 409,
    message: 'The API key is revoked and can no longer be changed.',
    retry: 'no',
  },
} as const satisfies Record<string, ErrorDefinition>;
