import { dashboardLinkBody } from '../../routes/dashboard-links';
import { orderDeliveriesQuery } from '../../routes/order-webhook-deliveries';
import { dashboardLink, orderDeliveryLog } from '../answers/events';
import * as example from '../examples/webhooks';
import { BEARER_ERRORS, type Operation, PAYMENT_ERRORS } from '../registry';

/** The reads a dashboard link may make answer its own refusals too (docs/dashboard.md). */
const DASHBOARD_LINK_ERRORS = ['dashboard_link_invalid', 'dashboard_link_expired'] as const;
const LINK_NOTE =
  ' Also takes a dashboard link token (`authorization: Bearer dl1.…`, docs/dashboard.md) as a read-only credential of its merchant.';

const page = { tag: 'Dashboard', auth: 'none' } as const;

/** The merchant dashboard: its links, the order's webhook deliveries it shows, its static files. */
export const dashboardOperations: Operation[] = [
  {
    tag: 'Dashboard',
    auth: 'bearer',
    scope: 'payments',
    method: 'post',
    path: '/v1/dashboard/links',
    operationId: 'createDashboardLink',
    summary: 'Mint a short-lived signed link to the merchant dashboard',
    description:
      "A merchant API key only. The link's token is in the URL's fragment, so it never reaches a server's " +
      'access log; it reads the merchant’s orders and reports until `expiresAt` and can change nothing.',
    body: dashboardLinkBody,
    example: { expiresInSeconds: 900 },
    responses: { 201: { description: 'The link', body: dashboardLink, example: example.dashboardLink } },
    errors: [...BEARER_ERRORS, 'validation_failed', 'merchant_forbidden', 'dashboard_closed'],
  },
  {
    tag: 'Orders',
    auth: 'bearer',
    scope: 'payments',
    method: 'get',
    path: '/v1/orders/:id/webhook-deliveries',
    operationId: 'listOrderWebhookDeliveries',
    summary: "The webhooks sent about an order to the merchant's endpoints, with every attempt",
    description: `Oldest first. A merchant API key only.${LINK_NOTE}`,
    query: orderDeliveriesQuery,
    responses: {
      200: { description: 'Deliveries and their attempts', body: orderDeliveryLog, example: example.orderDeliveryLog },
    },
    errors: [...PAYMENT_ERRORS, ...DASHBOARD_LINK_ERRORS, 'validation_failed', 'order_not_found'],
  },
  {
    ...page,
    method: 'get',
    path: '/dashboard',
    operationId: 'getDashboardPage',
    summary: 'The merchant dashboard (open the URL of a dashboard link)',
    responses: { 200: { description: 'HTML', body: { mediaType: 'text/html' } } },
    errors: [],
  },
  {
    ...page,
    method: 'get',
    path: '/dashboard/dashboard.js',
    operationId: 'getDashboardScript',
    summary: "The dashboard's script",
    responses: { 200: { description: 'JavaScript', body: { mediaType: 'text/javascript' } } },
    errors: [],
  },
  {
    ...page,
    method: 'get',
    path: '/dashboard/currencies.js',
    operationId: 'getDashboardCurrencies',
    summary: "The service's minor-unit exponents, for the dashboard's script",
    responses: { 200: { description: 'JavaScript', body: { mediaType: 'text/javascript' } } },
    errors: [],
  },
  {
    ...page,
    method: 'get',
    path: '/dashboard/dashboard.css',
    operationId: 'getDashboardStyles',
    summary: "The dashboard's styles",
    responses: { 200: { description: 'CSS', body: { mediaType: 'text/css' } } },
    errors: [],
  },
  {
    ...page,
    method: 'get',
    path: '/dashboard/chart.js',
    operationId: 'getDashboardChartLibrary',
    summary: 'Chart.js (UMD build), served locally for the dashboard',
    responses: { 200: { description: 'JavaScript', body: { mediaType: 'text/javascript' } } },
    errors: [],
  },
];
