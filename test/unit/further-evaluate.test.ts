import { ApplicationFailure } from '@temporalio/common';
import { FAILURE } from '../../src/domain/orders/failures';
import { draftOf, furtherEvaluate } from '../../src/workflows/order/evaluate';
import { Order } from '../../src/workflows/order/order';
import { evaluateInput } from '../helpers/orders';

/** A Problem async MIT order as the workflow holds it; `chargeOutcomeUnknown` as `Order.commit` sets it. */
function problemOrder(chargeOutcomeUnknown: boolean | undefined): Order {
  const order = new Order({
    orderId: 'o-1',
    orderSessionKey: 'sk-1',
    merchantId: 'm-1',
    partnerId: 'p-1',
    externalOrderId: 'x-1',
    isTestMode: true,
  });
  const at = new Date('2026-11-25T10:00:00.000Z');
  const card = { token: 'tok', brand: 'VISA', bin: '400000', last4: '0002' };
  const input = evaluateInput(card, at, { flow: 'ASYNC_MIT', isMIT: true, isRecurring: true, intervalCount: 1 });
  const state = { ...draftOf(order, input, at), status: 'Problem' as const, serviceAttempts: 2 };
  order.begin(chargeOutcomeUnknown === undefined ? state : { ...state, chargeOutcomeUnknown }, input);
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
