import { derivedUuid } from '../domain/ids';
import { simulateCharge } from '../domain/sandbox-processor';
import { adviceForMerchantAdviceCode, adviceForNetworkCode } from './advice';
import type { ChargeOutcome, ChargeRequest, ProcessorPort } from './port';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The sandbox's simulated card network (src/domain/sandbox-processor.ts) behind the port. Its ids
 * are derived from the idempotency keys, so a re-run answers as the first run did. Outside the
 * sandbox environment the simulator answers "unavailable" to every charge (503002).
 */
export function createSandboxAdapter(environment: string): ProcessorPort {
  const charge = (request: ChargeRequest): ChargeOutcome => {
    const simulated = simulateCharge(request.card.pan, request, environment);
    switch (simulated.result) {
      case 'approved':
        return { result: 'approved', authorizationId: derivedUuid('authorization', request.idempotencyKey) };
      case 'soft_decline': {
        // A Mastercard Merchant Advice Code travels with the decline; 03 and 21 forbid any retry.
        const mac = simulated.merchantAdviceCode;
        if (!mac) return { result: 'declined', code: simulated.code, advice: 'retryable' };
        return {
          result: 'declined',
          code: simulated.code,
          advice: adviceForMerchantAdviceCode(mac),
          merchantAdviceCode: mac,
        };
      }
      case 'hard_decline':
        // The simulator's hard declines stay hard whatever the code; R0/R1/R3 say more.
        return {
          result: 'declined',
          code: simulated.code,
          advice: adviceForNetworkCode(simulated.code) === 'do_not_retry' ? 'do_not_retry' : 'hard_decline',
        };
      default:
        return simulated;
    }
  };
  return {
    name: 'sandbox',
    sale: async (request) => charge(request),
    authorize: async (request) => charge(request),
    capture: async (request) => ({ captureId: derivedUuid('capture', request.idempotencyKey) }),
    void: async () => {},
    refund: async (request) => ({ processorReference: `rf_${request.refundId}` }),
    // Our own authorization ids are UUIDs; every other processor's carry its prefix (pi_ ...).
    issued: (authorizationId) => UUID.test(authorizationId),
  };
}
