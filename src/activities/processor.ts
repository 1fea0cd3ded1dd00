import { ApplicationFailure } from '@temporalio/activity';
import type { Db } from '../db/knex';
import { revealedCardOf } from '../db/repositories/card-vault';
import { type ChargeSendReads, recordChargeSendingReading } from '../db/repositories/charge-sending';
import { orderVersionWrittenAt, orderWrites } from '../db/repositories/orders';
import type { ChargeKind } from '../domain/orders/charge-attempts';
import type { ChargeInput, ChargeResult, LedgerAnswer, PersistOrderInput } from '../domain/orders/contracts';
import { FAILURE } from '../domain/orders/failures';
import type { VaultKey } from '../domain/vault-cipher';
import type { Logger } from '../logger';
import { chargeResultOf } from '../processors/advice';
import { type ChargeOutcome, ProcessorRefusal } from '../processors/port';
import { createProcessors } from '../processors/registry';
import type { ProcessorSettings } from '../processors/settings';
import { decidedOrder, outcomeOfRow } from './charge-decided-order';
import { chargeLedger, type LedgerChargeCall, type LedgerRecording, ledgerAnswerOf } from './charge-ledger';
import { countOrderWrite } from './orders';

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

    /** Captures on the processor that issued the authorization, through the charges ledger. */
    async processorCapture(input: {
      call: LedgerChargeCall;
      authorizationId: string;
    }): Promise<{ captureId: string } & LedgerAnswer> {
      return throughLedger(
        input.call,
        (key) =>
          processors.forAuthorization(input.authorizationId).capture({
            idempotencyKey: key,
            authorizationId: input.authorizationId,
            amount: input.call.amount,
            currency: input.call.currency,
          }),
        (r) => ({ result: 'done', processorReference: r.captureId }),
      );
    },

    /** Voids the authorization of charge `call.attempt`, through the charges ledger; that charge is reversed. */
    async processorVoid(input: { call: LedgerChargeCall; authorizationId: string }): Promise<LedgerAnswer> {
      const answer = await throughLedger(
        input.call,
        async (key) => {
          await processors
            .forAuthorization(input.authorizationId)
            .void({ idempotencyKey: key, authorizationId: input.authorizationId });
          return {};
        },
        () => ({ result: 'done' }),
      );
      await reversed(input.call);
      return answer;
    },

    /** Refunds a sale approved too late to take (charge `call.attempt`), through the charges ledger. */
    async processorReverse(input: { call: LedgerChargeCall; authorizationId: string }): Promise<LedgerAnswer> {
      const answer = await throughLedger(
        input.call,
        (key) =>
          processors.forAuthorization(input.authorizationId).refund({
            refundId: key,
            authorizationId: input.authorizationId,
            amount: input.call.amount,
            currency: input.call.currency,
          }),
        (r) => ({ result: 'done', processorReference: r.processorReference }),
      );
      await reversed(input.call);
      return answer;
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
      try {
        return await processors.forAuthorization(input.authorizationId).refund(input);
      } catch (err) {
        if (!(err instanceof ProcessorRefusal)) throw err;
        throw ApplicationFailure.nonRetryable(err.message, FAILURE.processorRefused, { code: err.code ?? null });
      }
    },
  };
}

/** A charge's result as the workflow gets it: the ledger row's key, and a decline's advice. */
function chargeResultWith(outcome: ChargeOutcome, key: string): ChargeResult {
  return { ...chargeResultOf(outcome), key, ...(outcome.result === 'declined' ? { advice: outcome.advice } : {}) };
}

/**
 * The first evaluate's charge (ChargeInput.decides): the order its answer decides is written in
 * the statement recording the answer (`decide`), or only read back with an answer recorded
 * before (`adopt`); `written` gives that order, or none when nothing decided it.
 */
function decidingWith(db: Db, input: ChargeInput, kind: ChargeKind) {
  const plan = input.decides;
  if (!plan) return undefined;
  const decision: {
    recording: LedgerRecording<ChargeOutcome>;
    decided?: ChargeResult['decided'];
    written?: PersistOrderInput;
  } = {
    recording: {
      readBack: outcomeOfRow,
      async writesWith(outcome, { key, sentAt, at, readBack }) {
        const charge = { kind, attempt: input.attempt, key, result: chargeResultWith(outcome, key) };
        // Recorded before: the order written with that answer stands, made at its own time.
        const writtenAt = readBack ? await orderVersionWrittenAt(db, plan.draft.orderId, plan.draft.version + 1) : null;
        if (writtenAt) {
          decision.decided = { changes: decidedOrder(plan, charge, writtenAt).changes, atUtc: writtenAt.toISOString() };
          return [];
        }
        if (plan.mode === 'adopt') return [];
        // On the workflow's clock (its time of the send, plus the call's own time), as its commit would be.
        const sent = input.attemptedAtUtc ? Date.parse(input.attemptedAtUtc) : sentAt.getTime();
        const decidedAt = new Date(sent + Math.max(0, at.getTime() - sentAt.getTime()));
        const order = decidedOrder(plan, charge, decidedAt);
        decision.decided = { changes: order.changes, atUtc: decidedAt.toISOString() };
        decision.written = order.persist;
        return orderWrites(db, order.persist);
      },
    },
  };
  return decision;
}

export type ProcessorActivities = ReturnType<typeof createProcessorActivities>;
