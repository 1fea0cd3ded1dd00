import type { ScoreInput, ScoreResult } from './orders/contracts';
import { declineCategory } from './orders/decline-codes';

/**
 * Explainable rescue scoring: a base score, each rule adding or removing points with a named
 * reason; below the threshold the rescue is declined. A hard original decline code declines at
 * once (card-network rules forbid retrying it). Pure: the activity adds the device signals.
 */
export const APPROVE_THRESHOLD = 30;

const SOFT_CODE_POINTS: Record<string, [number, string]> = {
  '51': [-5, 'insufficient_funds'],
  '61': [-5, 'exceeds_withdrawal_limit'],
  '65': [-5, 'exceeds_withdrawal_frequency'],
  '05': [-10, 'do_not_honour'],
  '91': [10, 'issuer_unavailable'],
  '96': [10, 'system_malfunction'],
};

/** What the rules read: the evaluate without the ids that only find its widget session. */
export type ScoringFacts = Omit<
  ScoreInput,
  'merchantId' | 'externalOrderId' | 'senseKey' | 'flow' | 'currency' | 'bin'
>;

export function scoreTransaction(input: ScoringFacts, deviceSignals: 'fresh' | 'absent'): ScoreResult {
  const reasons: string[] = [];
  let score = 50;
  const add = (points: number, reason: string) => {
    score += points;
    reasons.push(`${reason}:${points >= 0 ? '+' : ''}${points}`);
  };

  if (input.responseCode && declineCategory(input.responseCode) === 'hard') {
    return {
      decision: 'decline',
      score: 0,
      reasons: [`hard_decline_code_${input.responseCode}`],
      deviceSignalsUsed: false,
    };
  }
  const code = input.responseCode ? SOFT_CODE_POINTS[input.responseCode] : undefined;
  if (code) add(code[0], code[1]);
  if (input.amount >= 100_000) add(-15, 'high_amount');
  else if (input.amount <= 5_000) add(5, 'low_amount');
  if (input.attemptCount !== null && input.attemptCount >= 4) add(-20, 'many_prior_attempts');
  else if (input.attemptCount !== null && input.attemptCount >= 2) add(-5, 'prior_attempts');
  if (input.isMIT && input.isRecurring) add(15, 'recurring_mit');
  else if (input.isMIT) add(5, 'mit');
  // A card-not-present charge with its verification value is less likely fraud; its absence is
  // neutral (merchants may not collect it on renewals).
  if (input.cvvPresent) add(5, 'cvv_present');
  if (deviceSignals === 'fresh') add(10, 'device_signals');
  else reasons.push('no_device_signals:0');

  return {
    decision: score >= APPROVE_THRESHOLD ? 'approve' : 'decline',
    score,
    reasons,
    deviceSignalsUsed: deviceSignals === 'fresh',
  };
}
