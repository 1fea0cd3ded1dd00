import { ApiError } from '../domain/errors';
import type { PaymentField } from '../domain/orders/same-payment';
import { ORDER_STATUS, type OrderStatusName } from '../domain/orders/status';

/**
 * 409 `409010`: a further evaluate that is another payment than the order's, whether the API saw
 * it in the read model (further-evaluate.ts) or the order's workflow turned it away (order-client.ts).
 */
export function orderRequestMismatch(orderId: string, status: OrderStatusName, differs: PaymentField[]): ApiError {
  return new ApiError('order_request_mismatch', {
    field: differs[0],
    extra: { orderId, differs, orderStatus: ORDER_STATUS[status], orderStatusName: status },
  });
}

/** The 409010 of the evaluate validator's refusal, from its failure detail (src/workflows/order/evaluate.ts). */
export function orderRequestMismatchOf(detail: unknown): ApiError {
  const { orderId, status, differs } = detail as { orderId: string; status: OrderStatusName; differs: PaymentField[] };
  return orderRequestMismatch(orderId, status, differs);
}
