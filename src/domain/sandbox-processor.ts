import type { ChargeInput, ChargeResult } from './orders/contracts';

/**
 * The simulated card network of the sandbox: what each whitelisted test card does (docs/sandbox.md).
 * Deterministic in (card, attempt), so a retried activity gets the same answer. The sandbox
 * adapter of the processor port (src/processors/); outside the sandbox it answers "unavailable"
 * to every charge (evaluate then answers 503 rescue_unavailable) rather than pretend.
 */
export function simulateCharge(
  pan: string,
  input: Pick<ChargeInput, 'attempt' | 'flow' | 'challengeCompleted'>,
  environment: string,
): Exclude<ChargeResult, { result: 'approved' }> | { result: 'approved' } {
  if (environment !== 'sandbox') return { result: 'unavailable' };
  switch (pan) {
    case '4111111111111111':
      return { result: 'approved' };
    case '4000000000000002':
      return { result: 'hard_decline', code: '43' }; // stolen card: never retried
    case '4000000000003220':
      return input.flow === 'CIT' && !input.challengeCompleted
        ? { result: 'challenge_required' }
        : { result: 'approved' };
    case '4000000000000341':
      return input.attempt >= 3 ? { result: 'approved' } : { result: 'soft_decline', code: '05' };
    case '4000000000009995':
      return { result: 'soft_decline', code: '51' }; // insufficient funds, every time
    case '4000000000000119':
      return { result: 'unavailable' };
    default:
      return { result: 'soft_decline', code: '05' };
  }
}
