import { orderCursor } from '../../order-cursor';
import { order } from './orders';
import { CREATED_AT, ORDER_ID } from './values';

/** GET /v1/orders?status=SUCCESS&limit=1: the newest completed order, older ones behind the cursor. */
export const orderPage = {
  data: [order],
  hasMore: true,
  nextCursor: orderCursor({ createdAt: new Date(CREATED_AT), id: ORDER_ID }),
};
