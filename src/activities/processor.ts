import { ApplicationFailure } from '@temporalio/activity';
import type { Db } from '../db/knex';
import { revealedCardOf } from '../db/repositories/card-vault';
import { type ChargeSendReads, recordChargeSendingReading } from '../db/repositories/charge-sending';
import { refundReservedAt } from '../db/repositories/refund-lookups';
import { KEY_RESEND_LIMIT_MS } from '../domain/orders/charge-attempts';
import type { ChargeInput, ChargeResult, LedgerAnswer } from '../domain/orders/contracts';
import { FAILURE } from '../domain/orders/failures';
import type { VaultKey } from '../domain/vault-cipher';
import type { Logger } from '../logger';
import type { ChargeOutcome } from '../processors/port';
import { createProcessors } from '../processors/registry';
import type { ProcessorSettings } from '../processors/settings';
import { chargeResultWith, decidingWith } from './charge-decided-order';
import { chargeLedger, type LedgerChargeCall, ledgerAnswerOf } from './charge-ledger';
import { countOrderWrite } from './orders';
import { isRefused, refusalAsAnswer, refusedAnswer, refusedForGood } from './processor-refusals';
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
 * decision to make them is durable in its history; an order's calls go through the charges ledger,
 * whose row (written first) names the idempotency key, so a re-run gets the processor's first
 * answer instead of moving money again. The sandbox simulator honours the keys the same way: the
 * ids it answers are derived from them.
 */
export function createProcessorActivities(deps: ProcessorActivityDeps) {
  const processors = createProcessors({
    environment: deps.environment,
    settings: deps.processors ?? { stripe: null },
    ...(deps.logger ? { logger: deps.logger } : {}),
  });
  const { throughLedger, throughLedgerReading, reversed } = chargeLedger(deps.db);

  /** A void or reversal through the ledger: done, the charge is reversed; refused for good, it stands. */
  async function giveBack(
    call: LedgerChargeCall,
    send: (key: string) => Promise<{ processorReference?: string }>,
  ): Promise<LedgerAnswer> {
    const answer = await throughLedger(
      call,
      (key) => refusalAsAnswer(() => send(key)),
      (r) => (isRefused(r) ? refusedAnswer(r) : { result: 'done', processorReference: r.processorReference ?? null }),
    );
    if (isRefused(answer)) throw refusedForGood(answer.refused);
    await reversed(call);
    return { key: answer.key };
  }

  return {
    /**
     * Charges (sale) or authorizes on the merchant's processor (src/processors/), through the
     * charges ledger. The card is read from the vault here and goes only to the processor. A vault
     * read failure is StoreUnavailable, never "unavailable".
     */
    async processorCharge(input: ChargeInput): Promise<ChargeResult> {
      const call: LedgerChargeCall = {
        key: input.idempotencyKey,
        orderId: input.orderId,
        merchantId: input.merchantId,
        externalOrderId: input.externalOrderId,
        kind: input.mode === 'authorize' ? 'authorization' : 'sale',
        attempt: input.attempt,
        amount: input.amount,
        currency: input.currency,
        ...(input.attemptedAtUtc ? { attemptedAt: new Date(input.attemptedAtUtc) } : {}),
        request: {
          cardToken: input.cardToken,
          mode: input.mode,
          flow: input.flow,
          threeDSecure: input.threeDSecure,
          ...(input.challengeCompleted !== undefined ? { challengeCompleted: input.challengeCompleted } : {}),
        },
      };
      const decision = input.decides && decidingWith(deps.db, input, call.kind);
      const outcome = await throughLedgerReading<ChargeOutcome, ChargeSendReads>(
        call,
        async (key, { vaultRow, settings }): Promise<ChargeOutcome> => {
          // No such card in this merchant's vault: declined as an invalid card, nothing sent.
          if (!vaultRow) return { result: 'declined', code: '14', advice: 'hard_decline' };
          const { pan, card } = revealedCardOf(vaultRow, deps.vaultKeys);
          const processor = processors.forMerchant(settings.processor);
          if (!processor) return { result: 'unavailable' };
          const request = {
            idempotencyKey: key,
            card: { pan, expiryMonth: card.expiryMonth, expiryYear: card.expiryYear },
            amount: input.amount,
            currency: input.currency,
            flow: input.flow,
            attempt: input.attempt,
            threeDSecure: input.threeDSecure,
            ...(input.challengeCompleted !== undefined ? { challengeCompleted: input.challengeCompleted } : {}),
          };
          return input.mode === 'authorize' ? processor.authorize(request) : processor.sale(request);
        },
        ledgerAnswerOf,
        {
          recording: decision?.recording,
          saysNothing: input.settling ? (outcome) => outcome.result === 'unavailable' : undefined,
          // The card and the settings are read in the statement that records the intent.
          recordSending: (intent, at) =>
            recordChargeSendingReading(deps.db, intent, at, {
              merchantId: input.merchantId,
              cardToken: input.cardToken,
            }),
        },
      );
      // Counted once durable; an order read back was counted by the send that recorded it.
      if (decision?.written) countOrderWrite(decision.written);
      const result = chargeResultWith(outcome, outcome.key);
      return decision?.decided ? { ...result, decided: decision.decided } : result;
    },

    /**
     * Captures on the processor that issued the authorization, through the charges ledger. A
     * refusal for good is recorded on its row (`refused`) and not retried (ProcessorRefused).
     */
    async processorCapture(input: {
      call: LedgerChargeCall;
      authorizationId: string;
    }): Promise<{ captureId: string } & LedgerAnswer> {
      const answer = await throughLedger(
        input.call,
        (key) =>
          refusalAsAnswer(() =>
            processors.forAuthorization(input.authorizationId).capture({
              idempotencyKey: key,
              authorizationId: input.authorizationId,
              amount: input.call.amount,
              currency: input.call.currency,
            }),
          ),
        (r) => (isRefused(r) ? refusedAnswer(r) : { result: 'done', processorReference: r.captureId }),
      );
      if (isRefused(answer)) throw refusedForGood(answer.refused);
      return answer;
    },

    /**
     * Voids the authorization of charge `call.attempt`, through the charges ledger; that charge is
     * reversed. A refusal for good (say, captured at the processor outside the service) is recorded
     * on the void's row (`refused`), the charge left standing, and not retried (ProcessorRefused).
     */
    async processorVoid(input: { call: LedgerChargeCall; authorizationId: string }): Promise<LedgerAnswer> {
      return giveBack(input.call, async (key) => {
        await processors
          .forAuthorization(input.authorizationId)
          .void({ idempotencyKey: key, authorizationId: input.authorizationId });
        return {};
      });
    },

    /** Refunds a sale approved too late to take (charge `call.attempt`), as a void does (above). */
    async processorReverse(input: { call: LedgerChargeCall; authorizationId: string }): Promise<LedgerAnswer> {
      return giveBack(input.call, (key) =>
        processors.forAuthorization(input.authorizationId).refund({
          refundId: key,
          authorizationId: input.authorizationId,
          amount: input.call.amount,
          currency: input.call.currency,
        }),
      );
    },

    /**
     * Refunds part of a capture (the refund workflow, against the refunds ledger); the refund id
     * is the key. A refusal for good is not retried (ProcessorRefused, with the processor's code).
     */
    async processorRefund(input: {
      refundId: string;
      authorizationId: string;
      amount: number;
      currency?: string;
    }): Promise<{ processorReference: string }> {
      // Under a key the processor may have forgotten (Stripe keeps one 24 hours), a refund that went
      // through unheard would be made again: left pending, for an operator (docs/runbook.md).
      const reservedAt = await storeStep('read refund', () => refundReservedAt(deps.db, input.refundId));
      if (reservedAt && Date.now() - reservedAt.getTime() > KEY_RESEND_LIMIT_MS)
        throw ApplicationFailure.nonRetryable(
          `refund ${input.refundId} was first asked at ${reservedAt.toISOString()}: too long ago to send again under its key`,
          FAILURE.chargeKeyExpired,
        );
      const answer = await refusalAsAnswer(() => processors.forAuthorization(input.authorizationId).refund(input));
      if (isRefused(answer)) throw refusedForGood(answer.refused);
      return answer;
    },
  };
}

export type ProcessorActivities = ReturnType<typeof createProcessorActivities>;
