import type { Db } from '../db/knex';
import { revealVaultedCard } from '../db/repositories/card-vault';
import { getMerchantSettings } from '../db/repositories/merchants';
import type { ChargeInput, ChargeResult } from '../domain/orders/contracts';
import type { VaultKey } from '../domain/vault-cipher';
import type { Logger } from '../logger';
import { chargeResultOf } from '../processors/advice';
import { createProcessors } from '../processors/registry';
import type { ProcessorSettings } from '../processors/settings';
import { storeStep } from './store-failures';

export interface ProcessorActivityDeps {
  db: Db;
  vaultKeys: VaultKey[];
  environment: string;
  /** Processor credentials (src/processors/settings.ts); none when not given. */
  processors?: ProcessorSettings;
  logger?: Logger;
}

/**
 * The calls that move money. They run as ordinary activities, scheduled only once the workflow's
 * decision to make them is durable in its history, and each carries an idempotency key derived
 * from the command (never from the moment), as real processors accept: a re-run gets the
 * processor's first answer instead of moving money again. The sandbox simulator honours the keys
 * the same way: the ids it answers are derived from them.
 */
export function createProcessorActivities(deps: ProcessorActivityDeps) {
  const processors = createProcessors({
    environment: deps.environment,
    settings: deps.processors ?? { stripe: null },
    ...(deps.logger ? { logger: deps.logger } : {}),
  });
  return {
    /**
     * Charges (sale) or authorizes on the merchant's processor (src/processors/). The card is read
     * from the vault here and goes only to the processor. A vault read failure is
     * StoreUnavailable, never "unavailable".
     */
    async processorCharge(input: ChargeInput): Promise<ChargeResult> {
      const [vaulted, settings] = await storeStep('read card vault', () =>
        Promise.all([
          revealVaultedCard(deps.db, input.merchantId, input.cardToken, deps.vaultKeys),
          getMerchantSettings(deps.db, input.merchantId),
        ]),
      );
      if (!vaulted) return { result: 'hard_decline', code: '14' }; // no such card in this merchant's vault
      const { pan, card } = vaulted;
      const processor = processors.forMerchant(settings.processor);
      if (!processor) return { result: 'unavailable' };
      const request = {
        idempotencyKey: input.idempotencyKey,
        card: { pan, expiryMonth: card.expiryMonth, expiryYear: card.expiryYear },
        amount: input.amount,
        currency: input.currency,
        flow: input.flow,
        attempt: input.attempt,
        threeDSecure: input.threeDSecure,
        ...(input.challengeCompleted !== undefined ? { challengeCompleted: input.challengeCompleted } : {}),
      };
      const outcome = input.mode === 'authorize' ? await processor.authorize(request) : await processor.sale(request);
      return chargeResultOf(outcome);
    },

    /** Captures on the processor that issued the authorization. */
    async processorCapture(input: {
      idempotencyKey: string;
      authorizationId: string;
      amount: number;
    }): Promise<{ captureId: string }> {
      return processors.forAuthorization(input.authorizationId).capture(input);
    },

    async processorVoid(input: { idempotencyKey: string; authorizationId: string }): Promise<void> {
      await processors.forAuthorization(input.authorizationId).void(input);
    },

    /** Refunds part of a capture; the refund id is the idempotency key. */
    async processorRefund(input: {
      refundId: string;
      authorizationId: string;
      amount: number;
    }): Promise<{ processorReference: string }> {
      return processors.forAuthorization(input.authorizationId).refund(input);
    },
  };
}

export type ProcessorActivities = ReturnType<typeof createProcessorActivities>;
