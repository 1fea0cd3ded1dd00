import type { OrderEventName } from './events';
import type { Flow, OrderStatusName } from './status';

/**
 * The order state machine: the one table of every status change an order can make, what makes
 * it (trigger), for which flows, and the events it sends. The order workflow and the refunds
 * ledger record moves; they never decide one the table does not declare (`declaredMove` throws).
 * Cancellability, refund eligibility, the statuses the workflow waits in and the ones it closes in
 * are all read from it. A move to the same status (a retry's soft decline, a challenge attempt)
 * is a row too: it writes the order and its events, without a transition row.
 *
 * One choice the interface leaves open: it lets a merchant cancel an MIT order in Draft. Here
 * Draft is never at rest (only inside the first evaluate, which holds the order: a cancel sent
 * meanwhile waits for it, then acts on the status it decided), so no cancel ever meets Draft and
 * the table declares none.
 */
export type OrderTrigger =
  /** The first evaluate of a run decides the order (from Draft, also on a new attempt). */
  | 'evaluate'
  /** The cardholder's challenge report, and the charge a pass leads to. */
  | 'challenge'
  /** The challenge's time ran out (an unanswered charge after a pass is settled instead). */
  | 'challenge-timeout'
  /** An async MIT retry's answer, or its charge left unanswered for as long as its key is kept. */
  | 'retry'
  /** The async MIT rescue window ended (a hard decline ends it early). */
  | 'window-end'
  /** A capture, or a further evaluate of a Sync MIT order awaiting capture. */
  | 'capture'
  /** The capture deadline passed (its timer, or a capture or further evaluate arriving late). */
  | 'capture-deadline'
  /** The merchant's cancel or external-cancel. */
  | 'cancel'
  /** A refund settled by the refunds ledger (after the workflow has closed). */
  | 'refund';

export interface OrderMove {
  from: OrderStatusName;
  trigger: OrderTrigger;
  flows: readonly Flow[];
  /** When the move is taken rather than another from the same status and trigger. */
  when: string;
  to: OrderStatusName;
  events: readonly OrderEventName[];
}

const ANY: readonly Flow[] = ['CIT', 'SYNC_MIT', 'ASYNC_MIT'];
/** The flows that charge while the caller waits (async MIT answers SUBMITTED and charges later). */
const CHARGED_AT_EVALUATE: readonly Flow[] = ['CIT', 'SYNC_MIT'];
const MIT: readonly Flow[] = ['SYNC_MIT', 'ASYNC_MIT'];
/** A void or refund undoing an approval, refused (say, captured at the processor): the money stands. */
const GIVE_BACK_REFUSED = 'refused for good: the approval stands';

const move = (
  from: OrderStatusName,
  trigger: OrderTrigger,
  flows: readonly Flow[],
  when: string,
  to: OrderStatusName,
  events: readonly OrderEventName[] = [],
): OrderMove => ({ from, trigger, flows, when, to, events });

export const ORDER_MOVES: readonly OrderMove[] = [
  move(
    'Draft',
    'evaluate',
    ANY,
    'scoring declines, the processor declines, or a Sync MIT window had closed',
    'Declined',
  ),
  move('Draft', 'evaluate', ['ASYNC_MIT'], 'scoring approves: the rescue runs on', 'Processing'),
  move('Draft', 'evaluate', CHARGED_AT_EVALUATE, 'the processor asks for a challenge', 'Onhold', [
    'challenge.presented',
  ]),
  move('Draft', 'evaluate', CHARGED_AT_EVALUATE, 'approved, authorize flow or Sync MIT', 'Capturerequired', [
    'order.capturerequired',
  ]),
  move('Draft', 'evaluate', ['CIT'], 'approved, sale', 'Completed', ['order.completed']),
  move('Draft', 'evaluate', CHARGED_AT_EVALUATE, 'the processor is unavailable', 'Problem'),

  move('Onhold', 'challenge', CHARGED_AT_EVALUATE, 'attempted', 'Onhold', ['challenge.attempted']),
  move('Onhold', 'challenge', CHARGED_AT_EVALUATE, 'passed: the charge follows', 'Onhold', ['challenge.passed']),
  move('Onhold', 'challenge', CHARGED_AT_EVALUATE, 'failed', 'Declined', ['challenge.failed']),
  move('Onhold', 'challenge', CHARGED_AT_EVALUATE, 'the charge after a pass is declined', 'Declined'),
  move(
    'Onhold',
    'challenge',
    CHARGED_AT_EVALUATE,
    'the charge after a pass is approved, authorize',
    'Capturerequired',
    ['order.capturerequired'],
  ),
  move('Onhold', 'challenge', CHARGED_AT_EVALUATE, 'the charge after a pass is approved, sale', 'Completed', [
    'order.completed',
  ]),
  move('Onhold', 'challenge', CHARGED_AT_EVALUATE, 'the processor is unavailable after a pass', 'Problem'),
  move('Onhold', 'challenge-timeout', CHARGED_AT_EVALUATE, 'no charge after a pass is unanswered', 'Cancelled', [
    'order.cancelled',
  ]),
  move(
    'Onhold',
    'challenge-timeout',
    CHARGED_AT_EVALUATE,
    'the unanswered charge, settled, authorized',
    'Capturerequired',
    ['order.capturerequired'],
  ),
  move('Onhold', 'challenge-timeout', CHARGED_AT_EVALUATE, 'the unanswered charge, settled, approved', 'Completed', [
    'order.completed',
  ]),
  move('Onhold', 'challenge-timeout', CHARGED_AT_EVALUATE, 'the unanswered charge, settled, declined', 'Declined'),
  move('Onhold', 'challenge-timeout', CHARGED_AT_EVALUATE, 'the unanswered charge stays unanswered', 'Problem'),

  move('Processing', 'retry', ['ASYNC_MIT'], 'a soft decline or an unavailable processor', 'Processing'),
  move('Processing', 'retry', ['ASYNC_MIT'], 'approved, authorize', 'Capturerequired', ['order.capturerequired']),
  move('Processing', 'retry', ['ASYNC_MIT'], 'approved, sale', 'Completed', ['order.completed']),
  move('Processing', 'retry', ['ASYNC_MIT'], 'a hard decline: never retried', 'Cancelled', ['order.expired']),
  move('Processing', 'retry', ['ASYNC_MIT'], 'unanswered past its key, or an approval a cancel undid', 'Problem'),
  move('Processing', 'window-end', ['ASYNC_MIT'], 'not rescued in the window', 'Cancelled', ['order.expired']),
  move('Processing', 'window-end', ['ASYNC_MIT'], 'the last retry unanswered, or not given back', 'Problem'),
  move('Processing', 'cancel', ['ASYNC_MIT'], 'the merchant stops the rescue', 'Cancelled', ['order.cancelled']),
  move('Processing', 'cancel', ['ASYNC_MIT'], `an unanswered retry's approval ${GIVE_BACK_REFUSED}`, 'Problem'),

  move('Capturerequired', 'capture', ANY, 'before the deadline', 'Completed', ['order.completed']),
  move('Capturerequired', 'capture', ['SYNC_MIT'], 'a further evaluate, the capture refused for good', 'Cancelled', [
    'order.expired',
  ]),
  move('Capturerequired', 'capture-deadline', ['CIT'], 'nobody captured the authorization', 'Cancelled', [
    'order.cancelled',
  ]),
  move('Capturerequired', 'capture-deadline', MIT, 'the rescue window closed uncaptured', 'Cancelled', [
    'order.expired',
  ]),
  move('Capturerequired', 'cancel', ANY, 'the merchant voids the authorization', 'Cancelled', ['order.cancelled']),
  // The authorization was captured or changed at the processor outside the service.
  move('Capturerequired', 'capture', ['SYNC_MIT'], `capture refused; the void ${GIVE_BACK_REFUSED}`, 'Problem'),
  move('Capturerequired', 'capture-deadline', ANY, `the void ${GIVE_BACK_REFUSED}`, 'Problem'),
  move('Capturerequired', 'cancel', ANY, `the void ${GIVE_BACK_REFUSED}`, 'Problem'),

  move('Completed', 'refund', ANY, 'part of the captured amount is still unrefunded', 'Completed', ['order.refunded']),
  move('Completed', 'refund', ANY, 'everything captured is refunded', 'Returned', ['order.refunded']),
];

/** The declared move, or a throw: a status change the table does not declare is a bug. */
export function declaredMove(
  from: OrderStatusName,
  trigger: OrderTrigger,
  flow: Flow,
  to: OrderStatusName,
  events: readonly OrderEventName[],
): OrderMove {
  const found = ORDER_MOVES.find(
    (m) =>
      m.from === from &&
      m.trigger === trigger &&
      m.to === to &&
      m.flows.includes(flow) &&
      m.events.length === events.length &&
      m.events.every((e, i) => e === events[i]),
  );
  if (!found)
    throw new UndeclaredMoveError(`an order cannot move from ${from} to ${to} by ${trigger} (${flow}, [${events}])`);
  return found;
}

export class UndeclaredMoveError extends Error {
  override name = 'UndeclaredMoveError';
}

/** Whether `trigger` can move an order of this flow out of (or within) this status. */
export function accepts(flow: Flow, status: OrderStatusName, trigger: OrderTrigger): boolean {
  return ORDER_MOVES.some((m) => m.from === status && m.trigger === trigger && m.flows.includes(flow));
}

/** Cancel and external-cancel may act on this order (the interface's cancel rule 1). */
export const isCancellable = (flow: Flow, status: OrderStatusName): boolean => accepts(flow, status, 'cancel');

/** A refund may be taken on an order in this status (the 180-day window is the ledger's). */
export const isRefundable = (flow: Flow, status: OrderStatusName): boolean => accepts(flow, status, 'refund');

/** What a settled refund moves the order to: Returned once everything captured is refunded. */
export function statusAfterRefund(
  flow: Flow,
  from: OrderStatusName,
  refunded: number,
  captured: number,
): OrderStatusName {
  const to: OrderStatusName = refunded >= captured ? 'Returned' : from;
  return declaredMove(from, 'refund', flow, to, ['order.refunded']).to;
}

/**
 * The triggers the order workflow runs itself while the order waits in a status: a status with
 * none of them, nor any command, has nothing left to wait for and its workflow closes.
 */
const WORKFLOW_TRIGGERS: readonly OrderTrigger[] = [
  'evaluate',
  'challenge',
  'challenge-timeout',
  'retry',
  'window-end',
  'capture',
  'capture-deadline',
  'cancel',
];

/** The order workflow has nothing left to do in this status (refunds run after it closes). */
export function isFinal(status: OrderStatusName): boolean {
  return !ORDER_MOVES.some((m) => m.from === status && WORKFLOW_TRIGGERS.includes(m.trigger));
}

/** The timed trigger the workflow waits on in this status (its phase), if any. */
export function timedTrigger(status: OrderStatusName): 'retry' | 'challenge-timeout' | 'capture-deadline' | undefined {
  const timed = ['retry', 'challenge-timeout', 'capture-deadline'] as const;
  return timed.find((t) => ORDER_MOVES.some((m) => m.from === status && m.trigger === t));
}
