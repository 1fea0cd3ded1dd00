import { z } from 'zod';
import * as adminPartners from '../../routes/admin-partners';
import * as merchants from '../../routes/merchants';
import * as tokenizationKeys from '../../routes/tokenization-keys';
import { BEARER_ERRORS, type Operation } from '../registry';
import { list, object } from '../schemas';

const uuid = z.uuid();
const instant = z.iso.datetime({ offset: true });

export const tokenizationKey = z
  .looseObject({
    id: uuid,
    mid: uuid,
    name: z.string(),
    status: z.enum(['active', 'revoked']),
    keyHint: z.string().nullable().describe('`...` and the last four characters of the key.'),
    createdAt: instant,
    revokedAt: instant.nullable(),
  })
  .meta({ id: 'TokenizationKey' });
export const tokenizationKeyWithKey = tokenizationKey
  .extend({ key: z.string().describe('The key for `x-tokenization-key`; shown only on creation.') })
  .meta({ id: 'TokenizationKeyWithKey' });
export const site = z
  .looseObject({ siteId: uuid, mid: uuid, name: z.string(), allowedOrigins: z.array(z.string()), createdAt: instant })
  .meta({ id: 'Site' });

const tk = { tag: 'Tokenization keys', auth: 'bearer', scope: 'api_keys' } as const;
const settings = { tag: 'Merchant settings', auth: 'bearer', scope: 'settings' } as const;
const merchantErrors = [...BEARER_ERRORS, 'merchant_forbidden', 'validation_failed'] as const;

/** Onboarding without the database: partners (operators), tokenization keys, a site's origins. */
export const onboardingOperations: Operation[] = [
  {
    method: 'post',
    path: '/v1/admin/partners',
    tag: 'Back office',
    auth: 'admin',
    summary: 'Create a partner with its first API key (operators)',
    body: adminPartners.createPartnerBody,
    responses: {
      201: {
        description: 'The partner, and its API key with the secret (shown once)',
        body: object('`{ pid, name, createdAt, apiKey: { ...API key, secret } }`.'),
      },
    },
    errors: ['invalid_admin_token', 'validation_failed'],
  },
  {
    ...tk,
    method: 'post',
    path: '/v1/merchants/:mid/tokenization-keys',
    summary: 'Issue a tokenization key',
    body: tokenizationKeys.createBody,
    responses: { 201: { description: 'The key (shown once)', body: tokenizationKeyWithKey } },
    errors: [...merchantErrors],
  },
  {
    ...tk,
    method: 'get',
    path: '/v1/merchants/:mid/tokenization-keys',
    summary: "A merchant's tokenization keys",
    responses: { 200: { description: 'The keys', body: list('`{ mid, data: [tokenization key] }`.') } },
    errors: [...merchantErrors],
  },
  {
    ...tk,
    method: 'get',
    path: '/v1/merchants/:mid/tokenization-keys/:id',
    summary: 'Get a tokenization key',
    responses: { 200: { description: 'The key', body: tokenizationKey } },
    errors: [...merchantErrors, 'tokenization_key_not_found'],
  },
  {
    ...tk,
    method: 'delete',
    path: '/v1/merchants/:mid/tokenization-keys/:id',
    summary: 'Revoke a tokenization key',
    responses: { 200: { description: 'Revoked', body: tokenizationKey } },
    errors: [...merchantErrors, 'tokenization_key_not_found'],
  },
  {
    ...settings,
    method: 'get',
    path: '/v1/merchants/:mid/sites/:siteId',
    summary: 'Get a site',
    responses: { 200: { description: 'The site', body: site } },
    errors: [...merchantErrors, 'site_not_found'],
  },
  {
    ...settings,
    method: 'put',
    path: '/v1/merchants/:mid/sites/:siteId',
    summary: "Change a site's name or allowed origins",
    description: '`allowedOrigins` replaces the list; the widget accepts the new origins at once.',
    body: merchants.siteUpdateBody,
    responses: { 200: { description: 'The site', body: site } },
    errors: [...merchantErrors, 'site_not_found'],
  },
];
