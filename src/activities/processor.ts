import type { Db } from '../db/knex';
import { revealCard } from '../db/repositories/card-vault';
import { derivedUuid } from '../domain/ids';
import type { ChargeInput, ChargeResult } from '../domain/orders/contracts';
import { simulateCharge } from '../domain/sandbox-processor';
import type { VaultKey } from '../domain/vault-cipher';
import { storeStep } from './store-failures';

export interface ProcessorActivityDeps {
  db: Db;
  vaultKeys: VaultKey[];
  environment: string;
}

/**
 * The calls that move money. They run as ordinary activities, scheduled only once the workflow's
 * decision to make them is durable in its history, and each carries an idempotency key derived
 * from the command (never from the moment), as real processors accept: a re-run gets the
 * processor's first answer instead of moving money again. The sandbox simulator honours the keys
 * the same way: the ids it answers are derived from them.
 */
export function createProcessorActivities(deps: ProcessorActivityDeps) {
  return {
    /** Charges (sale) or authorizes. A vault read failure is StoreUnavailable, never "unavailable". */
    async processorCharge(input: ChargeInput): Promise<ChargeResult> {
      const pan = await storeStep('read card vault', () =>
        revealCard(deps.db, input.merchantId, input.cardToken, deps.vaultKeys),
      );
      if (!pan) return { result: 'hard_decline', code: '14' }; // no such card in this merchant's vault
      const simulated = simulateCharge(pan, input, deps.environment);
      return simulated.result === 'approved'
        ? { result: 'approved', authorizationId: derivedUuid('authorization', input.idempotencyKey) }
        : simulated;
    },

    async processorCapture(input: {
      idempotencyKey: string;
      authorizationId: string;
      amount: number;
    }): Promise<{ captureId: string }> {
      return { captureId: derivedUuid('capture', input.idempotencyKey) };
    },

    async processorVoid(input: { idempotencyKey: string; authorizationId: string }): Promise<void> {
      void input;
    },

    /** Refunds part of a capture; the refund id is the idempotency key. */
    async processorRefund(input: {
      refundId: string;
      authorizationId: string;
      amount: number;
    }): Promise<{ processorReference: string }> {
      return { processorReference: `rf_${input.refundId}` };
    },
  };
}

export type ProcessorActivities = ReturnType<typeof createProcessorActivities>;
