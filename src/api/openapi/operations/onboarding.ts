import * as adminPartners from '../../routes/admin-partners';
import * as merchants from '../../routes/merchants';
import * as tokenizationKeys from '../../routes/tokenization-keys';
import { partnerWithKey, tokenizationKey, tokenizationKeyList, tokenizationKeyWithKey } from '../answers/keys';
import { site } from '../answers/merchants';
import * as example from '../examples/merchants';
import { BEARER_ERRORS, type Operation } from '../registry';

const tk = { tag: 'Tokenization keys', auth: 'bearer', scope: 'api_keys' } as const;
const settings = { tag: 'Merchant settings', auth: 'bearer', scope: 'settings' } as const;
const merchantErrors = [...BEARER_ERRORS, 'merchant_forbidden', 'validation_failed'] as const;

/** Onboarding without the database: partners (operators), tokenization keys, a site's origins. */
export const onboardingOperations: Operation[] = [
  {
    method: 'post',
    path: '/v1/admin/partners',
    operationId: 'createPartner',
    tag: 'Back office',
    auth: 'admin',
    summary: 'Create a partner with its first API key (operators)',
    body: adminPartners.createPartnerBody,
    example: example.partnerRequest,
    responses: {
      201: {
        description: 'The partner, and its API key with the secret (shown once)',
        body: partnerWithKey,
        example: example.partnerWithKey,
      },
    },
    errors: ['invalid_admin_token', 'validation_failed'],
  },
  {
    ...tk,
    method: 'post',
    path: '/v1/merchants/:mid/tokenization-keys',
    operationId: 'createTokenizationKey',
    summary: 'Issue a tokenization key',
    body: tokenizationKeys.createBody,
    example: example.tokenizationKeyRequest,
    responses: {
      201: {
        description: 'The key (shown once)',
        body: tokenizationKeyWithKey,
        example: example.tokenizationKeyWithKey,
      },
    },
    errors: [...merchantErrors],
  },
  {
    ...tk,
    method: 'get',
    path: '/v1/merchants/:mid/tokenization-keys',
    operationId: 'listTokenizationKeys',
    summary: "A merchant's tokenization keys",
    responses: { 200: { description: 'The keys', body: tokenizationKeyList, example: example.tokenizationKeyList } },
    errors: [...merchantErrors],
  },
  {
    ...tk,
    method: 'get',
    path: '/v1/merchants/:mid/tokenization-keys/:id',
    operationId: 'getTokenizationKey',
    summary: 'Get a tokenization key',
    responses: { 200: { description: 'The key', body: tokenizationKey, example: example.tokenizationKey } },
    errors: [...merchantErrors, 'tokenization_key_not_found'],
  },
  {
    ...tk,
    method: 'delete',
    path: '/v1/merchants/:mid/tokenization-keys/:id',
    operationId: 'revokeTokenizationKey',
    summary: 'Revoke a tokenization key',
    responses: { 200: { description: 'Revoked', body: tokenizationKey, example: example.revokedTokenizationKey } },
    errors: [...merchantErrors, 'tokenization_key_not_found'],
  },
  {
    ...settings,
    method: 'get',
    path: '/v1/merchants/:mid/sites/:siteId',
    operationId: 'getSite',
    summary: 'Get a site',
    responses: { 200: { description: 'The site', body: site, example: example.site } },
    errors: [...merchantErrors, 'site_not_found'],
  },
  {
    ...settings,
    method: 'put',
    path: '/v1/merchants/:mid/sites/:siteId',
    operationId: 'updateSite',
    summary: "Change a site's name or allowed origins",
    description: '`allowedOrigins` replaces the list; the widget accepts the new origins at once.',
    body: merchants.siteUpdateBody,
    example: example.siteUpdate,
    responses: { 200: { description: 'The site', body: site, example: example.updatedSite } },
    errors: [...merchantErrors, 'site_not_found'],
  },
];
