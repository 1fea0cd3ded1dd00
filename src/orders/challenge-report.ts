import { findOrderBySessionKey } from '../db/repositories/order-lookups';
import type { ChallengeReport, CommandRefusal } from '../domain/orders/contracts';
import type { OrderStatusName, Outcome } from '../domain/orders/status';
import { challengeUpdate } from '../workflows';
import type { OrderDeps } from './deps';
import { CLOSED } from './order-client';

/** What the order's workflow made of a challenge report: recorded (with the order's status now), or refused. */
export type ChallengeReported =
  | { kind: 'recorded'; orderId: string; status: OrderStatusName; outcome: Outcome | null }
  | CommandRefusal;

export interface PreparedChallengeReport {
  /** The order's merchant: the caller's rate limit counts the report against it. */
  merchantId: string;
  /** Sends the report to the order's workflow. */
  run(): Promise<ChallengeReported>;
}

/**
 * The cardholder challenge component reports what happened (POST /v1/challenges/...): the order
 * is the one its orderSessionKey names (the key is what authorizes the report, for that one order
 * only); the report goes to the order's workflow, which decides (passed leads to the charge,
 * failed to a decline). Undefined when no order has that key.
 */
export async function prepareChallengeReport(
  deps: Pick<OrderDeps, 'db' | 'workflows'>,
  orderSessionKey: string,
  result: ChallengeReport,
): Promise<PreparedChallengeReport | undefined> {
  const order = await findOrderBySessionKey(deps.db, orderSessionKey);
  if (!order) return undefined;
  return {
    merchantId: order.merchant_id,
    async run() {
      const answer = await deps.workflows.command(order.workflow_id, challengeUpdate, { result });
      // A closed workflow takes no report: the order is past its challenge.
      if (answer === CLOSED) return { kind: 'refused', reason: 'not_in_challenge', status: order.status_name };
      if (answer.kind === 'refused') return answer;
      return { kind: 'recorded', orderId: order.id, status: answer.status, outcome: answer.outcome };
    },
  };
}
