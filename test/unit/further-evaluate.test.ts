import { ApplicationFailure } from '@temporalio/common';
import type { EvaluateInput, OrderState } from '../../src/domain/orders/contracts';
import { FAILURE } from '../../src/domain/orders/failures';
import { furtherEvaluate } from '../../src/workflows/order/evaluate';
import { Order } from '../../src/workflows/order/order';

/** A Problem order as the workflow holds it; `chargeOutcomeUnknown` as `Order.commit` sets it. */
function problemOrder(chargeOutcomeUnknown: boolean | undefined): Order {
  const ids = { orderId: 'o-1', orderSessionKey: 'sk-1', merchantId: 'm-1', partnerId: 'p-1', externalOrderId: 'x-1' };
  const order = new Order({ ...ids, isTestMode: true });
  const at = '2026-11-25T10:00:00.000Z';
  const state: OrderState = {
    ...ids,
    version: 3,
    isTestMode: true,
    flow: 'ASYNC_MIT',
    transactionType: 'SALE',
    isMIT: true,
    isRecurring: true,
    status: 'Problem',
    outcome: null,
    amount: 2500,
    currency: 'USD',
    authorizedAmount: 0,
    capturedAmount: 0,
    refundedAmount: 0,
    card: { token: 'tok', brand: 'VISA', bin: '400000', last4: '0002' },
    senseKey: null,
    responseCode: '51',
    attemptCount: null,
    serviceAttempts: 2,
    ...(chargeOutcomeUnknown === undefined ? {} : { chargeOutcomeUnknown }),
    declinedAtUtc: at,
    windowEndsAtUtc: '2026-12-16T10:00:00.000Z',
    captureBeforeUtc: null,
    confirmationId: null,
    authorizationId: null,
    score: null,
    reasons: [],
    deviceSignalsUsed: false,
    createdAtUtc: at,
    updatedAtUtc: at,
    completedAtUtc: null,
    cancelledAtUtc: null,
    expiredAtUtc: null,
  };
  order.begin(state, {} as EvaluateInput);
  return order;
}

/**
 * A further evaluate that reaches a Problem order's workflow answers as the read model does once
 * the run has closed (src/orders/further-evaluate.ts): a charge that may stand is "outcome not
 * known" (500 `500010`), never "fall back to the decline" (503 `503002`).
 */
describe('a further evaluate of a Problem order, in the workflow', () => {
  it('over a charge never answered: ChargeOutcomeUnknown (500010)', async () => {
    const failure = await furtherEvaluate(problemOrder(true)).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect((failure as ApplicationFailure).type).toBe(FAILURE.chargeOutcomeUnknown);
  });

  it('over a charge the processor refused, or a state written before the flag: rescue unavailable (503002)', async () => {
    await expect(furtherEvaluate(problemOrder(false))).resolves.toEqual({ kind: 'rescue_unavailable', orderId: 'o-1' });
    await expect(furtherEvaluate(problemOrder(undefined))).resolves.toEqual({
      kind: 'rescue_unavailable',
      orderId: 'o-1',
    });
  });
});
