import { orderSearchQuery } from '../../routes/order-search';
import { orderPage } from '../answers/orders';
import * as example from '../examples/order-search';
import { type Operation, PAYMENT_ERRORS } from '../registry';

/** GET /v1/orders (docs/orders.md "Listing and searching orders"). */
export const orderSearchOperations: Operation[] = [
  {
    tag: 'Orders',
    auth: 'bearer',
    scope: 'payments',
    method: 'get',
    path: '/v1/orders',
    operationId: 'listOrders',
    summary: "List and search the merchant's orders, newest first",
    description:
      'Filters: `status`, `outcome`, `flow` (each one or several, comma-separated), `createdFrom` (inclusive), ' +
      '`createdTo` (exclusive), `externalOrderId` (exact). Cursor paging as GET /v1/events: pass `nextCursor` ' +
      'back as `starting_after`. A merchant API key only, or a dashboard link token (`Bearer dl1.…`, ' +
      'docs/dashboard.md) as a read-only credential of its merchant. docs/orders.md.',
    query: orderSearchQuery,
    responses: {
      200: { description: 'A page of orders and the next cursor', body: orderPage, example: example.orderPage },
    },
    errors: [...PAYMENT_ERRORS, 'dashboard_link_invalid', 'dashboard_link_expired', 'validation_failed'],
  },
];
