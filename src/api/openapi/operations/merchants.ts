import { merchantSettingsUpdate } from '../../../domain/merchant-settings';
import { widgetConfigUpdate } from '../../../domain/widget-config';
import { widgetBatch } from '../../../domain/widget-signals';
import { siteBody } from '../../routes/merchants';
import { merchantSettings, signalsAccepted, site, siteList, siteWidget, widgetConfig } from '../answers/merchants';
import * as example from '../examples/merchants';
import { BEARER_ERRORS, type Operation } from '../registry';

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
    operationId: 'getMerchantSettings',
    summary: "A merchant's settings",
    responses: { 200: { description: 'The settings', body: merchantSettings, example: example.settings } },
    errors: [...merchantErrors],
  },
  {
    ...settings,
    method: 'put',
    path: '/v1/merchants/:mid/settings',
    operationId: 'updateMerchantSettings',
    summary: "Change a merchant's settings",
    body: merchantSettingsUpdate,
    example: example.settingsUpdate,
    responses: { 200: { description: 'The settings', body: merchantSettings, example: example.settings } },
    errors: [...merchantErrors],
  },
  {
    ...settings,
    method: 'get',
    path: '/v1/merchants/:mid/sites',
    operationId: 'listSites',
    summary: "A merchant's sites",
    responses: { 200: { description: 'The sites', body: siteList, example: example.siteList } },
    errors: [...merchantErrors],
  },
  {
    ...settings,
    method: 'post',
    path: '/v1/merchants/:mid/sites',
    operationId: 'createSite',
    summary: 'Create a site (its siteId and allowed origins)',
    body: siteBody,
    example: example.siteRequest,
    responses: { 201: { description: 'The site', body: site, example: example.site } },
    errors: [...merchantErrors],
  },
  {
    ...settings,
    method: 'get',
    path: '/v1/merchants/:mid/sites/:siteId/widget',
    operationId: 'getSiteWidget',
    summary: "A site's widget configuration and snippet",
    responses: { 200: { description: 'Configuration and snippet', body: siteWidget, example: example.siteWidget } },
    errors: [...merchantErrors, 'site_not_found'],
  },
  {
    ...settings,
    method: 'put',
    path: '/v1/merchants/:mid/sites/:siteId/widget',
    operationId: 'updateSiteWidget',
    summary: "Change a site's widget configuration",
    body: widgetConfigUpdate,
    example: example.siteWidgetUpdate,
    responses: { 200: { description: 'Configuration and snippet', body: siteWidget, example: example.siteWidget } },
    errors: [...merchantErrors, 'site_not_found'],
  },
  {
    ...widget,
    method: 'get',
    path: '/widget/fc.js',
    operationId: 'getWidgetLoader',
    summary: 'The widget loader script',
    responses: { 200: { description: 'JavaScript', body: { mediaType: 'text/javascript' } } },
    errors: [],
  },
  {
    ...widget,
    method: 'get',
    path: '/widget/fc.:hash.js',
    operationId: 'getWidgetScript',
    summary: 'The widget script, content-hashed (immutable)',
    responses: { 200: { description: 'JavaScript', body: { mediaType: 'text/javascript' } } },
    errors: ['route_not_found'],
  },
  {
    ...widget,
    method: 'options',
    path: '/v1/widget/:mid/:siteId/config',
    operationId: 'preflightWidgetConfig',
    summary: 'CORS preflight of the widget configuration',
    responses: { 204: { description: 'Allowed origin' } },
    errors: [...widgetErrors],
  },
  {
    ...widget,
    method: 'get',
    path: '/v1/widget/:mid/:siteId/config',
    operationId: 'getWidgetConfig',
    summary: 'What the widget collects on this site',
    responses: {
      200: { description: 'The configuration and batch limits', body: widgetConfig, example: example.widgetConfig },
    },
    errors: [...widgetErrors],
  },
  {
    ...widget,
    method: 'options',
    path: '/v1/widget/:mid/:siteId/signals',
    operationId: 'preflightWidgetSignals',
    summary: 'CORS preflight of the widget signals',
    responses: { 204: { description: 'Allowed origin' } },
    errors: [...widgetErrors],
  },
  {
    ...widget,
    method: 'post',
    path: '/v1/widget/:mid/:siteId/signals',
    operationId: 'sendWidgetSignals',
    summary: 'One batch of browser signals',
    body: widgetBatch,
    example: example.signalsBatch,
    responses: { 202: { description: 'Accepted', body: signalsAccepted, example: example.signalsAccepted } },
    errors: [...widgetErrors, 'validation_failed', 'widget_payload_too_large'],
  },
];
