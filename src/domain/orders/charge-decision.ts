import type { ChargeResult } from './activity-contracts';
import type { OrderDomainEvent } from './domain-events';
import type { OrderState } from './order-state';

/**
 * What a charge's answer decides of an order, as one commit (its changes, why, and the events it
 * raises). Pure: the order workflow commits it (src/workflows/order/), and the first evaluate's
 * charge activity records it in the statement that records the answer (src/activities/processor.ts).
 */
export interface OrderChange {
  changes: Partial<OrderState>;
  reason: string;
  events: OrderDomainEvent[];
}

/** How long a CIT challenge waits for the cardholder before the order is cancelled. */
export const CHALLENGE_TIMEOUT_MS = 15 * 60_000;

/** The clock and ids a decision reads: given, so the workflow and the activity decide alike. */
export interface DecisionContext {
  now: Date;
  /** The merchant's capture window for an authorization (default 5 minutes). */
  captureWindowMinutes: number;
  /** The challenge's wait starts here (the evaluate's time, or the answer's where the activity records it). */
  challengeFrom: Date;
  /** A completed order's confirmation id (asked for only when the order completes). */
  confirmationId: () => string;
}

/** The order completed: `captured` taken under `authorizationId`. */
export function completion(
  s: OrderState,
  authorizationId: string,
  captured: number,
  ctx: Pick<DecisionContext, 'now' | 'confirmationId'>,
  reason: string,
): OrderChange {
  return {
    changes: {
      status: 'Completed',
      outcome: 'APPROVED',
      authorizationId,
      authorizedAmount: Math.max(s.authorizedAmount, captured),
      capturedAmount: captured,
      confirmationId: ctx.confirmationId(),
      completedAtUtc: ctx.now.toISOString(),
    },
    reason,
    events: [{ name: 'order.completed' }],
  };
}

/** A processor approval: completed (sale) or waiting for capture (authorize, Sync MIT). */
export function approval(
  s: OrderState,
  authorizationId: string,
  ctx: Omit<DecisionContext, 'challengeFrom'>,
  reason: string,
): OrderChange {
  if (s.transactionType !== 'AUTHORIZATION' && s.flow !== 'SYNC_MIT')
    return completion(s, authorizationId, s.amount, ctx, reason);
  const captureBefore =
    s.flow === 'SYNC_MIT'
      ? new Date(s.windowEndsAtUtc ?? ctx.now).toISOString()
      : new Date(ctx.now.getTime() + ctx.captureWindowMinutes * 60_000).toISOString();
  return {
    changes: {
      status: 'Capturerequired',
      outcome: 'CAPTUREREQUIRED',
      authorizationId,
      authorizedAmount: s.amount,
      captureBeforeUtc: captureBefore,
    },
    reason,
    events: [{ name: 'order.capturerequired', amount: s.amount, currency: s.currency, captureBefore }],
  };
}

/** What the first evaluate's charge (CIT, Sync MIT) decides, by the processor's answer. */
export function evaluateChargeDecision(s: OrderState, result: ChargeResult, ctx: DecisionContext): OrderChange {
  switch (result.result) {
    case 'approved':
      return approval(s, result.authorizationId, ctx, 'approved by the processor');
    case 'challenge_required': {
      const expiresAt = new Date(ctx.challengeFrom.getTime() + CHALLENGE_TIMEOUT_MS).toISOString();
      return {
        changes: { status: 'Onhold', outcome: 'CHALLENGE' },
        reason: 'cardholder challenge required',
        events: [{ name: 'challenge.presented', expiresAt }],
      };
    }
    case 'unavailable':
      return { changes: { status: 'Problem' }, reason: 'processor unavailable', events: [] };
    default:
      return {
        changes: { status: 'Declined', outcome: 'DECLINED', responseCode: result.code },
        reason: `processor ${result.result} ${result.code}`,
        events: [],
      };
  }
}
