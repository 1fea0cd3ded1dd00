import * as wf from '@temporalio/workflow';
import type { ChargeResult } from '../../domain/orders/contracts';
import { FAILURE } from '../../domain/orders/failures';
import { processor, processorSettling } from './activities';
import type { Order } from './order';

/**
 * Charging, and undoing a charge: every call through the charges ledger (src/activities/processor.ts),
 * under the key of the call's ledger row, recorded in the order's own list (Order.charges).
 */

type ProcessorApi = typeof processor | typeof processorSettling;

/**
 * One charge attempt, through the charges ledger (its row, written first, names the processor's
 * idempotency key). The attempt number advances only once the processor's answer is recorded by a
 * commit; until then the caller is told to try again and the retry reuses the same attempt and so
 * the same key, so the processor returns its first answer instead of charging twice. `settling`:
 * sent again only to learn what became of it (ChargeInput.settling).
 */
export async function charge(
  order: Order,
  api: ProcessorApi,
  challengeCompleted = false,
  decides?: 'decide' | 'adopt',
  settling = false,
): Promise<ChargeResult> {
  const s = order.state;
  const attempt = s.serviceAttempts + 1;
  const mode = chargeMode(s);
  const call = order.charges.sending(mode === 'authorize' ? 'authorization' : 'sale', attempt, s.amount);
  // The first evaluate's charge: the activity records the order its answer decides (ChargeInput.decides).
  const plan = decides ? { decides: { ...order.decisionPlan(), mode: decides } } : {};
  try {
    const result = await api.processorCharge({
      idempotencyKey: call.key,
      orderId: s.orderId,
      externalOrderId: s.externalOrderId,
      merchantId: s.merchantId,
      cardToken: s.card.token,
      amount: s.amount,
      currency: s.currency,
      mode,
      flow: s.flow,
      attempt,
      threeDSecure: order.evaluation?.threeDSecure ?? null,
      challengeCompleted,
      attemptedAtUtc: new Date().toISOString(),
      ...plan,
      ...(settling ? { settling } : {}),
    });
    order.charges.answer(attempt, result);
    if (result.decided) order.adoptRecorded(result.decided.changes, new Date(result.decided.atUtc));
    return result;
  } catch (err) {
    if (wf.isCancellation(err)) throw err;
    if (failureTypeOf(err) === FAILURE.externalOrderTaken) {
      // Another run's order holds the externalOrderId (two restarts raced): nothing was sent.
      order.charges.notSent(call.kind, attempt);
      order.superseded = true;
      throw wf.ApplicationFailure.create({
        type: FAILURE.externalOrderTaken,
        message: 'the order exists',
        nonRetryable: true,
      });
    }
    order.charges.unanswered(attempt);
    // Even when the last attempt failed before the processor (our vault read), an earlier one
    // may have reached it and timed out: the activity's final failure says nothing of those.
    throw outcomeUnknown('the processor did not answer the charge in time; its outcome is not known, try again');
  }
}

/** The failure that tells a caller a charge's outcome is not known (500 `500010`: try again). */
export function outcomeUnknown(message: string): wf.ApplicationFailure {
  return wf.ApplicationFailure.create({ type: FAILURE.chargeOutcomeUnknown, message, nonRetryable: true });
}

/** A charge that went unanswered (the processor's outcome is not known). */
export function isOutcomeUnknown(err: unknown): boolean {
  return err instanceof wf.ApplicationFailure && err.type === FAILURE.chargeOutcomeUnknown;
}

function chargeMode(s: { flow: string; transactionType: string }): 'authorize' | 'sale' {
  return s.flow === 'SYNC_MIT' || s.transactionType === 'AUTHORIZATION' ? 'authorize' : 'sale';
}

/**
 * What settling an unanswered charge found (`unsettled`: the processor would not say; `decided`:
 * an earlier send recorded the order its answer decided, which the order now is; `refused`: it
 * was approved and the processor refused for good to give it back, so the money stands).
 */
export type Settlement = 'undone' | 'not_charged' | 'unsettled' | 'decided' | 'refused';

/**
 * A charge sent and never answered whose approval can no longer be taken: a first evaluate never
 * decided nor retried within its hour (the merchant holds no order), an async MIT retry at a
 * merchant's cancel or at the window's end. Whatever it did is undone, as a technical cancel. The
 * charge is sent again under its key (the processor answers its first outcome; if the first never
 * reached it, it charges now) and an approval is voided (authorization) or refunded in full
 * (sale). A processor that still does not answer, or answers "unavailable" (it could not act, or
 * could not say), leaves the charge unsettled.
 */
export async function reverseUnsettledCharge(
  order: Order,
  api: ProcessorApi = processorSettling,
  adoptDecided = false,
): Promise<Settlement> {
  const s = order.state;
  const attempt = s.serviceAttempts + 1;
  let result: ChargeResult;
  try {
    result = await charge(order, api, false, adoptDecided ? 'adopt' : undefined, true);
  } catch (err) {
    if (wf.isCancellation(err)) throw err;
    return 'unsettled';
  }
  // Recorded with its answer by a send whose caller never heard: merchants may have its webhooks.
  if (result.decided) return 'decided';
  if (result.result === 'unavailable') {
    order.charges.unanswered(attempt);
    return 'unsettled';
  }
  if (result.result !== 'approved') return 'not_charged';
  const kind = chargeMode(s) === 'authorize' ? 'void' : 'reversal';
  return (await giveBack(order, kind, attempt, result.authorizationId, s.amount)) ? 'undone' : 'refused';
}

/**
 * Voids (an authorization) or refunds in full (a sale) charge `attempt`, through the charges
 * ledger; false when the processor refused that for good (say, the authorization was captured at
 * the processor outside the service): the refusal is on the call's row, the charge stands, and
 * the caller leaves the order to an operator (Problem) rather than record money given back.
 */
export async function giveBack(
  order: Order,
  kind: 'void' | 'reversal',
  attempt: number,
  authorizationId: string,
  amount: number,
): Promise<boolean> {
  const call = order.charges.sending(kind, attempt, amount);
  let done: { key?: string };
  try {
    done =
      kind === 'void'
        ? await processor.processorVoid({ call, authorizationId })
        : await processor.processorReverse({ call, authorizationId });
  } catch (err) {
    if (failureTypeOf(err) !== FAILURE.processorRefused) throw err;
    order.charges.done(kind, attempt, call.key, 'refused');
    wf.log.error(`the processor refused the ${kind} for good: the charge stands`, { attempt });
    return false;
  }
  order.charges.done(kind, attempt, done?.key);
  order.charges.reversed(attempt);
  return true;
}

/** What an order whose approval could not be given back records, as it becomes a Problem. */
export const GIVE_BACK_REFUSED = 'the processor refused for good to give the approval back (void or refund)';

/** The ApplicationFailure type anywhere in an error's cause chain. */
export function failureTypeOf(err: unknown): string | undefined {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    if (e instanceof wf.ApplicationFailure && e.type) return e.type;
  }
  return undefined;
}
