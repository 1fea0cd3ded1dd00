import type { OrderStatusName } from '../../domain/orders/status';

/**
 * The order state machine, as one table: the statuses each status may move to inside the order
 * workflow. A commit outside the table throws (the bug surfaces; no state is written). Completed
 * moves on to Returned only through the refunds ledger, after the workflow has closed.
 *
 * | from            | to                                                        | by                                    |
 * | Draft           | Processing, Onhold, Capturerequired, Completed, Declined, Problem | the first evaluate            |
 * | Processing      | Processing (a retry's result), Capturerequired, Completed, Cancelled, Problem | async MIT retries, expiry, cancel |
 * | Onhold          | Onhold (attempted/passed), Capturerequired, Completed, Declined, Cancelled, Problem | challenge reports, timeout |
 * | Capturerequired | Completed, Cancelled                                      | capture / further evaluate, cancel, window end |
 */
export const TRANSITIONS: Readonly<Record<OrderStatusName, readonly OrderStatusName[]>> = {
  Draft: ['Processing', 'Onhold', 'Capturerequired', 'Completed', 'Declined', 'Problem'],
  Processing: ['Processing', 'Capturerequired', 'Completed', 'Cancelled', 'Problem'],
  Onhold: ['Onhold', 'Capturerequired', 'Completed', 'Declined', 'Cancelled', 'Problem'],
  Capturerequired: ['Completed', 'Cancelled'],
  Completed: [],
  Returned: [],
  Cancelled: [],
  Declined: [],
  Problem: [],
};

/** Statuses in which the workflow has nothing left to wait for: it closes. */
export function isFinal(status: OrderStatusName): boolean {
  return TRANSITIONS[status].length === 0;
}

export function canMove(from: OrderStatusName, to: OrderStatusName): boolean {
  return TRANSITIONS[from].includes(to);
}
