import { ApplicationFailure } from '@temporalio/activity';
import type { Db } from '../db/knex';
import { type Write, writeAsOneStatement } from '../db/one-statement';
import { recordChargeSending } from '../db/repositories/charge-sending';
import {
  type ChargeAnswer,
  type ChargeIntent,
  ChargeRequestChangedError,
  chargeAnswerWrite,
  ExternalOrderTakenError,
  markChargeReversed,
  markChargeUnknown,
} from '../db/repositories/charges';
import type { ChargeRecord, ChargeRequestRecord } from '../db/tables/charges';
import { isCardCharge, KEY_RESEND_LIMIT_MS } from '../domain/orders/charge-attempts';
import type { LedgerAnswer, LedgerCall } from '../domain/orders/contracts';
import { FAILURE } from '../domain/orders/failures';
import type { ChargeOutcome } from '../processors/port';
import { type FaultPoint, faultPoint } from './fault-points';
import { storeStep } from './store-failures';

/**
 * A ledger call, with a charge's request kept to send it again (src/db/repositories/charges.ts)
 * and when it was attempted on the workflow's clock (the networks' rolling counts).
 */
export type LedgerChargeCall = LedgerCall & { request?: ChargeRequestRecord; attemptedAt?: Date };

/**
 * What a charge records with its answer, in the answer's statement (the first evaluate's decided
 * order: src/activities/processor.ts). An answer an earlier send recorded is read back from its
 * row instead of sending again, and its writes are made again (they are idempotent).
 */
export interface LedgerRecording<T> {
  readBack(row: ChargeRecord): T;
  /**
   * The writes; `key` is the row's, `sentAt` and `at` when the call was sent and answered (this
   * process's clock), `readBack` if the answer was recorded before.
   */
  writesWith(answer: T, recorded: { key: string; sentAt: Date; at: Date; readBack: boolean }): Promise<Write[]>;
}

/** How a call goes through the ledger beyond its steps (throughLedger). */
export interface LedgerSending<T> {
  /** What it records with its answer (the first evaluate's decided order). */
  recording?: LedgerRecording<T> | undefined;
  /** An answer that says nothing of the call: not recorded, the row left unknown (ChargeInput.settling). */
  saysNothing?: ((answer: T) => boolean) | undefined;
}

/** A send that reads what it needs in the statement recording its intent (throughLedgerReading). */
export interface LedgerSendingReading<T, R> extends LedgerSending<T> {
  /** Records the intent as sent and answers the row with the reads, in one statement. */
  recordSending: (intent: ChargeIntent, at: Date) => Promise<{ row: ChargeRecord; reads: R }>;
}

/**
 * How the processor activities reach the charges ledger (docs/architecture.md, "Money
 * invariants"): the intent row first, written as sent in one statement (or the one this attempt
 * already has, marked sent again), then the call under the row's id, then the answer recorded on
 * the row. Every step is idempotent, so a re-run (a worker that died mid-call) sends the same key
 * and the processor answers its first answer. A call that ends with no answer leaves the row
 * `unknown` for the next send to settle.
 */
export function chargeLedger(db: Db) {
  /** Intent (as sent), call, answer. */
  function throughLedger<T>(
    call: LedgerChargeCall,
    send: (key: string) => Promise<T>,
    answerOf: (answer: T) => ChargeAnswer,
    options: LedgerSending<T> = {},
  ): Promise<T & LedgerAnswer> {
    const recordSending = async (intent: ChargeIntent, at: Date) => ({
      row: await recordChargeSending(db, intent, at),
      reads: undefined,
    });
    return throughLedgerReading(call, send, answerOf, { ...options, recordSending });
  }

  /** The same, with what the send reads (`R`) read in the statement that records its intent. */
  async function throughLedgerReading<T, R>(
    call: LedgerChargeCall,
    send: (key: string, reads: R) => Promise<T>,
    answerOf: (answer: T) => ChargeAnswer,
    options: LedgerSendingReading<T, R>,
  ): Promise<T & LedgerAnswer> {
    const { recording } = options;
    // The kill-point tests' hooks (test-only, inert unless armed): card charges only.
    const fault = (point: FaultPoint) => isCardCharge(call.kind) && faultPoint(point);
    const sentAt = new Date();
    const { row, reads } = await storeStep('record charge intent', async () => {
      try {
        return await options.recordSending({ ...call, id: call.key }, sentAt);
      } catch (err) {
        if (err instanceof ExternalOrderTakenError)
          throw ApplicationFailure.nonRetryable(err.message, FAILURE.externalOrderTaken);
        if (err instanceof ChargeRequestChangedError)
          throw ApplicationFailure.nonRetryable(err.message, FAILURE.persistenceRejected);
        throw err;
      }
    });
    fault('charge.after-intent');
    if (recording && row.state === 'answered' && row.answered_at) {
      // Recorded by an earlier send whose caller never heard: read back, not sent again.
      const answer = recording.readBack(row);
      const at = row.answered_at;
      const recorded = { key: row.id, sentAt: row.sent_at ?? at, at, readBack: true };
      const writes = await storeStep('read what was recorded with the answer', () =>
        recording.writesWith(answer, recorded),
      );
      if (writes.length) await storeStep('record with the charge answer', () => writeAsOneStatement(db, writes));
      return { ...answer, key: row.id };
    }
    if (isCardCharge(call.kind) && sentAt.getTime() - row.created_at.getTime() > KEY_RESEND_LIMIT_MS) {
      // Its outcome is learnt no more by sending: under a key the processor forgot, it charges anew.
      await storeStep('mark charge unknown', () => markChargeUnknown(db, row.id));
      throw ApplicationFailure.nonRetryable(
        `charge ${row.id} was first sent at ${row.created_at.toISOString()}: too long ago to send again under its key`,
        FAILURE.chargeKeyExpired,
      );
    }
    let answer: T;
    try {
      answer = await send(row.id, reads);
    } catch (err) {
      // Best effort: a row left `sent` is as unsettled as an `unknown` one.
      await markChargeUnknown(db, row.id).catch(() => undefined);
      throw err;
    }
    fault('charge.after-answer');
    if (options.saysNothing?.(answer)) {
      await storeStep('mark charge unknown', () => markChargeUnknown(db, row.id));
      return { ...answer, key: row.id };
    }
    const at = new Date();
    const writes = [
      chargeAnswerWrite(db, row.id, answerOf(answer), at),
      ...((await recording?.writesWith(answer, { key: row.id, sentAt, at, readBack: false })) ?? []),
    ];
    await storeStep('record charge answer', () => writeAsOneStatement(db, writes));
    fault('charge.after-record');
    return { ...answer, key: row.id };
  }

  /** The void or reversal of charge `call.attempt` is done: that charge is given back. */
  async function reversed(call: LedgerCall): Promise<void> {
    await storeStep('mark charge reversed', () => markChargeReversed(db, call.orderId, call.attempt, new Date()));
  }

  return { throughLedger, throughLedgerReading, reversed };
}

/** A charge's outcome as the ledger records it (the network code and advice as the adapter reported them). */
export function ledgerAnswerOf(outcome: ChargeOutcome): ChargeAnswer {
  switch (outcome.result) {
    case 'approved':
      return { result: 'approved', processorReference: outcome.authorizationId };
    case 'declined':
      return {
        result: 'declined',
        networkCode: outcome.code,
        advice: outcome.advice,
        merchantAdviceCode: outcome.merchantAdviceCode ?? null,
        processorDeclineCode: outcome.processorCode ?? null,
      };
    default:
      return { result: outcome.result };
  }
}
