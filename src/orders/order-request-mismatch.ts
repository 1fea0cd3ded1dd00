import { OrderFailure } from '../domain/orders/order-failure';
import type { PaymentField } from '../domain/orders/same-payment';
import type { OrderStatusName } from '../domain/orders/status';

/**
 * A further evaluate that is another payment than the order's (`order_request_mismatch`), whether
 * the use case saw it in the read model (further-evaluate.ts) or the order's workflow turned it
 * away (order-client.ts).
 */
export function orderRequestMismatch(orderId: string, status: OrderStatusName, differs: PaymentField[]): OrderFailure {
  return new OrderFailure({ reason: 'order_request_mismatch', orderId, status, differs });
}

/** The mismatch of the evaluate validator's refusal, from its failure detail (src/workflows/order/evaluate.ts). */
export function orderRequestMismatchOf(detail: unknown): OrderFailure {
  const { orderId, status, differs } = detail as { orderId: string; status: OrderStatusName; differs: PaymentField[] };
  return orderRequestMismatch(orderId, status, differs);
}
