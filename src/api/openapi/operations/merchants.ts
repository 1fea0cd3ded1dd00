import { z } from 'zod';
import { merchantSettingsUpdate } from '../../../domain/merchant-settings';
import { widgetConfigUpdate } from '../../../domain/widget-config';
import { widgetBatch } from '../../../domain/widget-signals';
import { siteBody } from '../../routes/merchants';
import { BEARER_ERRORS, type Operation } from '../registry';
import { list, object } from '../schemas';

const settings = { tag: 'Merchant settings', auth: 'bearer', scope: 'settings' } as const;
const merchantErrors = [...BEARER_ERRORS, 'merchant_forbidden', 'validation_failed'] as const;
const widget = { tag: 'Widget', auth: 'none' } as const;
const widgetErrors = ['site_not_found', 'widget_origin_forbidden', 'widget_rate_limited'] as const;

/** Settings and sites (docs/merchant-settings.md), the widget's own endpoints (docs/widget.md). */
export const merchantOperations: Operation[] = [
  {
    ...settings,
    method: 'get',
    path: '/v1/merchants/:mid/settings',
    summary: "A merchant's settings",
    responses: { 200: { description: 'The settings', body: object('`{ mid, ...settings }`.') } },
    errors: [...merchantErrors],
  },
  {
    ...settings,
    method: 'put',
    path: '/v1/merchants/:mid/settings',
    summary: "Change a merchant's settings",
    body: merchantSettingsUpdate,
    responses: { 200: { description: 'The settings', body: object('`{ mid, ...settings }`.') } },
    errors: [...merchantErrors],
  },
  {
    ...settings,
    method: 'get',
    path: '/v1/merchants/:mid/sites',
    summary: "A merchant's sites",
    responses: { 200: { description: 'The sites', body: list('`{ mid, data: [site] }`.') } },
    errors: [...merchantErrors],
  },
  {
    ...settings,
    method: 'post',
    path: '/v1/merchants/:mid/sites',
    summary: 'Create a site (its siteId and allowed origins)',
    body: siteBody,
    responses: { 201: { description: 'The site', body: object('The site.') } },
    errors: [...merchantErrors],
  },
  {
    ...settings,
    method: 'get',
    path: '/v1/merchants/:mid/sites/:siteId/widget',
    summary: "A site's widget configuration and snippet",
    responses: { 200: { description: 'Configuration and snippet', body: object('The widget configuration.') } },
    errors: [...merchantErrors, 'site_not_found'],
  },
  {
    ...settings,
    method: 'put',
    path: '/v1/merchants/:mid/sites/:siteId/widget',
    summary: "Change a site's widget configuration",
    body: widgetConfigUpdate,
    responses: { 200: { description: 'Configuration and snippet', body: object('The widget configuration.') } },
    errors: [...merchantErrors, 'site_not_found'],
  },
  {
    ...widget,
    method: 'get',
    path: '/widget/fc.js',
    summary: 'The widget loader script',
    responses: { 200: { description: 'JavaScript', body: { mediaType: 'text/javascript' } } },
    errors: [],
  },
  {
    ...widget,
    method: 'get',
    path: '/widget/fc.:hash.js',
    summary: 'The widget script, content-hashed (immutable)',
    responses: { 200: { description: 'JavaScript', body: { mediaType: 'text/javascript' } } },
    errors: ['route_not_found'],
  },
  {
    ...widget,
    method: 'options',
    path: '/v1/widget/:mid/:siteId/config',
    summary: 'CORS preflight of the widget configuration',
    responses: { 204: { description: 'Allowed origin' } },
    errors: [...widgetErrors],
  },
  {
    ...widget,
    method: 'get',
    path: '/v1/widget/:mid/:siteId/config',
    summary: 'What the widget collects on this site',
    responses: { 200: { description: 'The configuration and batch limits', body: object('Widget configuration.') } },
    errors: [...widgetErrors],
  },
  {
    ...widget,
    method: 'options',
    path: '/v1/widget/:mid/:siteId/signals',
    summary: 'CORS preflight of the widget signals',
    responses: { 204: { description: 'Allowed origin' } },
    errors: [...widgetErrors],
  },
  {
    ...widget,
    method: 'post',
    path: '/v1/widget/:mid/:siteId/signals',
    summary: 'One batch of browser signals',
    body: widgetBatch,
    responses: {
      202: { description: 'Accepted', body: z.object({ senseKey: z.string(), accepted: z.number().int() }) },
    },
    errors: [...widgetErrors, 'validation_failed', 'widget_payload_too_large'],
  },
];
