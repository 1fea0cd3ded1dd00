import { ApiError, ERROR_CATALOGUE } from '../domain/errors';
import { isRefusal, OrderFailure } from '../domain/orders/order-failure';
import { ORDER_STATUS } from '../domain/orders/status';

/**
 * The one mapping of an order use case's typed failure (src/domain/orders/order-failure.ts) to
 * the API's error: its catalogue entry (status, six-digit id), its headers and the fields of its
 * body in both dialects (docs/errors.md, docs/compatibility.md).
 */
export function apiErrorOf({ failure }: OrderFailure): ApiError {
  if (isRefusal(failure))
    return new ApiError(failure.reason, {
      extra: { orderStatus: ORDER_STATUS[failure.status], orderStatusName: failure.status },
      // FlexCharge clients read a refusal's text from a top-level responseMessage.
      topLevel: { responseMessage: ERROR_CATALOGUE[failure.reason].message },
    });
  switch (failure.reason) {
    case 'validation_failed':
    case 'merchant_forbidden':
      return new ApiError(failure.reason, { field: failure.field, message: `${failure.field}: ${failure.problem}` });
    case 'order_temporarily_unavailable':
      return new ApiError(failure.reason, { headers: { 'Retry-After': '1' } });
    case 'order_request_mismatch': {
      const { orderId, differs, status } = failure;
      return new ApiError(failure.reason, {
        field: differs[0],
        extra: { orderId, differs, orderStatus: ORDER_STATUS[status], orderStatusName: status },
      });
    }
    default:
      return new ApiError(failure.reason);
  }
}

/** An order use case's failure as the API's error; anything else as it is. */
export function asApiError(err: unknown): unknown {
  return err instanceof OrderFailure ? apiErrorOf(err) : err;
}
