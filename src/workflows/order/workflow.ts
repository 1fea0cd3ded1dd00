import * as wf from '@temporalio/workflow';
import type { CallerDeadline, OrderWorkflowInput } from '../../domain/orders/contracts';
import { FAILURE } from '../../domain/orders/failures';
import type { OrderStatusName } from '../../domain/orders/status';
import { isFinal, timedTrigger } from '../../domain/orders/transitions';
import { processorSettling } from './activities';
import { outcomeUnknown, reverseUnsettledCharge } from './charging';
import { cancel, capture, challenge } from './commands';
import { firstEvaluate, furtherEvaluate, refuseAnotherPayment } from './evaluate';
import { cancelUpdate, captureUpdate, challengeUpdate, evaluateUpdate, orderStateQuery } from './messages';
import { Order } from './order';
import { awaitCapture, awaitChallenge, type Phase, runAsyncRetries } from './phases';

/**
 * The phase that runs while the order waits in a non-final status, by the timed trigger the
 * transition table declares from that status.
 */
const PHASES: Record<NonNullable<ReturnType<typeof timedTrigger>>, Phase> = {
  retry: runAsyncRetries,
  'challenge-timeout': awaitChallenge,
  'capture-deadline': awaitCapture,
};

/** How long a started order waits for its first evaluate to be decided. */
const FIRST_EVALUATE_WAIT = '1 hour';
/** A command's answer while the first evaluate's charge is unanswered (its validator). */
const UNSETTLED_FIRST_CHARGE = "the order's first charge is still unanswered; its outcome is not known, try again";

/**
 * One workflow per order (id derived from merchant and externalOrderId): the single writer of
 * the order's state until it settles. Evaluate arrives by Update-With-Start; a further evaluate,
 * capture, cancel, external-cancel and challenge reports are Updates, admitted one at a time.
 * The workflow closes as soon as the order is final (completed, cancelled, declined, expired,
 * problem); refunds run afterwards in the refund workflow, against the refunds ledger.
 */
export async function orderWorkflow(start: OrderWorkflowInput): Promise<{ status: OrderStatusName }> {
  const order = new Order(start);

  // Validators turn a command away before it enters the history when the order cannot take it
  // now; the API retries a busy order briefly, then answers 409. One taken up after its caller
  // stopped waiting (no worker meanwhile) is not run: the caller was told nothing was decided.
  // Validators do not run on replay, so reading the clock here is safe.
  const admit = (needsEvaluated: boolean, { answerBy }: CallerDeadline): void => {
    if (answerBy && Date.now() > Date.parse(answerBy))
      throw wf.ApplicationFailure.create({
        type: FAILURE.callerGone,
        message: `taken up after its caller stopped waiting (${answerBy}); not run`,
      });
    if (order.busy)
      throw wf.ApplicationFailure.create({
        type: FAILURE.orderBusy,
        message: 'another command on this order is running',
      });
    // Not evaluated, with its first charge unanswered: the outcome is not known yet, so a cancel
    // (the interface's answer to a timed-out evaluate) is told to try again, not "no such order"
    // (a 404 would be stored under its key). The run settles the charge by its hour's end.
    if (needsEvaluated && !order.evaluated && order.unsettledCharge) throw outcomeUnknown(UNSETTLED_FIRST_CHARGE);
    if (needsEvaluated && !order.evaluated)
      throw wf.ApplicationFailure.create({ type: FAILURE.orderNotEvaluated, message: 'order not evaluated yet' });
    if (order.closing)
      throw wf.ApplicationFailure.create({ type: FAILURE.orderBusy, message: 'the unevaluated order is closing' });
  };

  wf.setHandler(
    evaluateUpdate,
    (input) =>
      order.exclusive(async () => {
        const key = input.idempotencyKey;
        if (!order.evaluated) {
          if (key) order.firstEvaluateKeys.add(key);
          order.firstAnswer = await firstEvaluate(order, input);
          return order.firstAnswer;
        }
        // The first evaluate again (any key it was sent under, a retry's that resumed it too): its
        // answer, not a further evaluate (which may capture).
        if (key && order.firstAnswer) {
          if (key === order.evaluation?.idempotencyKey) return order.firstAnswer;
          if (order.firstEvaluateKeys.has(key)) return order.firstAnswer;
        }
        return furtherEvaluate(order);
      }),
    {
      validator: (input) => {
        admit(false, input);
        refuseAnotherPayment(order, input);
      },
    },
  );
  wf.setHandler(captureUpdate, ({ amount }) => order.exclusive(() => capture(order, amount)), {
    validator: (input) => admit(true, input),
  });
  wf.setHandler(cancelUpdate, (input) => order.exclusive(() => cancel(order, input)), {
    validator: (input) => admit(true, input),
  });
  wf.setHandler(challengeUpdate, ({ result }) => order.exclusive(() => challenge(order, result)), {
    validator: (input) => admit(true, input),
  });
  wf.setHandler(orderStateQuery, () => order.snapshot());

  // A run the ledger found superseded (another run's order holds the id) closes at once.
  if (!(await wf.condition(() => order.evaluated || order.superseded, FIRST_EVALUATE_WAIT)) || !order.evaluated) {
    // Nothing new is taken up; one already running may still decide the order (then it goes on).
    order.closing = true;
    await wf.condition(wf.allHandlersFinished);
    if (!order.evaluated) {
      // A new attempt on a declined order settles its charge too (since the patch; before it,
      // left to the merchant's next attempt, which the API now reconciles first and numbers
      // after it: src/orders/new-attempt.ts). Asked last, so no other run records its marker.
      if (order.unsettledCharge && !order.superseded && (!start.resume || wf.patched('settle-new-attempt-charge'))) {
        // Its ledger rows record what this finds; the API reconciles from them whatever is left
        // unsettled before it starts the externalOrderId afresh (src/orders/unevaluated-run.ts).
        // A charge that recorded the order it decided was decided: that order goes on.
        const adopt = start.chargeRecordsDecision === true;
        const settlement = await order.exclusive(() => reverseUnsettledCharge(order, processorSettling, adopt));
        if (settlement === 'unsettled' || settlement === 'refused')
          wf.log.error('unevaluated order closes with its charge not given back', { settlement });
        else wf.log.warn('unevaluated order closes; the charge it sent was asked again', { settlement });
      }
      if (!order.evaluated) return { status: 'Draft' };
    }
    // Decided meanwhile (taken up just before the hour ended, or recorded by its charge): it goes on.
    order.closing = false;
  }
  for (let status = order.state.status; !isFinal(status); status = order.state.status) {
    const trigger = timedTrigger(status);
    const phase = trigger && PHASES[trigger];
    if (!phase) throw wf.ApplicationFailure.nonRetryable(`no phase for an evaluated order in ${status}`);
    await phase(order);
  }
  await wf.condition(wf.allHandlersFinished);
  return { status: order.state.status };
}
