import type { ChargeInput } from './orders/contracts';
import { SANDBOX_TEST_CARDS } from './sandbox-cards';

/**
 * The simulated card network of the sandbox: what each whitelisted test card does
 * (src/domain/sandbox-cards.ts, docs/sandbox.md). Deterministic in (card, attempt), so a retried activity gets the same answer. The sandbox
 * adapter of the processor port (src/processors/); outside the sandbox it answers "unavailable"
 * to every charge (evaluate then answers 503 rescue_unavailable) rather than pretend.
 */
/** A ChargeResult, and on a decline the Merchant Advice Code a Mastercard issuer sends. */
export type SimulatedCharge =
  | { result: 'approved' }
  | { result: 'soft_decline'; code: string; merchantAdviceCode?: string }
  | { result: 'hard_decline'; code: string }
  | { result: 'challenge_required' }
  | { result: 'unavailable' };

export function simulateCharge(
  pan: string,
  input: Pick<ChargeInput, 'attempt' | 'flow' | 'challengeCompleted'>,
  environment: string,
): SimulatedCharge {
  if (environment !== 'sandbox') return { result: 'unavailable' };
  switch (SANDBOX_TEST_CARDS[pan]) {
    case 'approves':
      return { result: 'approved' };
    case 'hard_decline':
      return { result: 'hard_decline', code: '43' }; // stolen card: never retried
    case 'challenge':
      return input.flow === 'CIT' && !input.challengeCompleted
        ? { result: 'challenge_required' }
        : { result: 'approved' };
    case 'approves_third_retry':
      return input.attempt >= 3 ? { result: 'approved' } : { result: 'soft_decline', code: '05' };
    case 'insufficient_funds':
      return { result: 'soft_decline', code: '51' }; // insufficient funds, every time
    case 'unavailable':
      return { result: 'unavailable' };
    case 'closes_after_first':
      return input.attempt >= 2 ? { result: 'hard_decline', code: '46' } : { result: 'soft_decline', code: '05' };
    case 'mac_02':
      return { result: 'soft_decline', code: '05', merchantAdviceCode: '02' };
    case 'mac_03':
      return { result: 'soft_decline', code: '05', merchantAdviceCode: '03' };
    case 'mac_21':
      return { result: 'soft_decline', code: '05', merchantAdviceCode: '21' };
    case 'mac_24':
      return { result: 'soft_decline', code: '05', merchantAdviceCode: '24' };
    case 'mac_26':
      return { result: 'soft_decline', code: '05', merchantAdviceCode: '26' };
    default:
      return { result: 'soft_decline', code: '05' };
  }
}
