import { apiErrorOf } from '../../src/api/order-failures';
import { errorBody } from '../../src/domain/errors';
import { OrderFailure, refused } from '../../src/domain/orders/order-failure';

/** The API's mapping of the order use cases' typed failures: ids, statuses and body fields as the wire has them. */
describe('order failures as API errors', () => {
  it('answers a refusal 409 with the order status and the top-level responseMessage', () => {
    const error = apiErrorOf(refused('not_capturable', 'Cancelled'));
    expect(error.status).toBe(409);
    expect(errorBody(error, 'req-1')).toMatchObject({
      responseMessage: error.message,
      error: {
        id: '409004',
        name: 'order_not_capturable',
        orderStatus: expect.any(Number),
        orderStatusName: 'Cancelled',
      },
    });
    const ids = (
      [
        'not_cancellable',
        'not_refundable',
        'refund_exceeds_captured',
        'capture_exceeds_authorized',
        'not_in_challenge',
      ] as const
    ).map((reason) => apiErrorOf(refused(reason, 'Completed')));
    for (const e of ids) expect([e.status, e.details.topLevel?.responseMessage]).toEqual([409, e.message]);
  });

  it('names the field of a request the use case refused', () => {
    const error = apiErrorOf(
      new OrderFailure({ reason: 'validation_failed', field: 'expiryDateUtc', problem: 'must be in the future' }),
    );
    expect([error.status, error.definition.id, error.details.field, error.message]).toEqual([
      400,
      '400002',
      'expiryDateUtc',
      'expiryDateUtc: must be in the future',
    ]);
    const forbidden = apiErrorOf(
      new OrderFailure({ reason: 'merchant_forbidden', field: 'mid', problem: 'is not yours' }),
    );
    expect([forbidden.definition.id, forbidden.details.field, forbidden.message]).toEqual([
      '403001',
      'mid',
      'mid: is not yours',
    ]);
  });

  it('asks for a retry after a second when nothing was decided in time', () => {
    const error = apiErrorOf(new OrderFailure({ reason: 'order_temporarily_unavailable' }));
    expect([error.status, error.definition.id, error.details.headers]).toEqual([503, '503010', { 'Retry-After': '1' }]);
  });

  it('tells a different payment which fields differ, and the order as it stands', () => {
    const error = apiErrorOf(
      new OrderFailure({
        reason: 'order_request_mismatch',
        orderId: 'o-1',
        status: 'Declined',
        differs: ['transaction.amount', 'paymentMethod'],
      }),
    );
    expect(error.status).toBe(409);
    expect(errorBody(error, 'req-2')).toMatchObject({
      error: {
        id: '409010',
        field: 'transaction.amount',
        orderId: 'o-1',
        differs: ['transaction.amount', 'paymentMethod'],
        orderStatusName: 'Declined',
      },
    });
  });

  it('answers the other failures with their catalogue entry alone', () => {
    const plain = [
      'order_busy',
      'order_outcome_pending',
      'order_not_found',
      'rescue_unavailable',
      'internal_error',
    ] as const;
    for (const reason of plain) {
      const error = apiErrorOf(new OrderFailure({ reason }));
      expect([error.errorName, error.details]).toEqual([reason, {}]);
    }
  });
});
