import { ApplicationFailure } from '@temporalio/activity';
import type { ChargeAnswer } from '../db/repositories/charges';
import { FAILURE } from '../domain/orders/failures';
import { ProcessorRefusal } from '../processors/port';

/**
 * A capture, void or refund the processor refused for good (src/processors/port.ts): the same
 * request would be refused again, so the activity is not retried. The workflow reads the failure
 * type (ProcessorRefused) and the processor's code.
 */
export function refusedForGood(refusal: ProcessorRefusal): ApplicationFailure {
  return ApplicationFailure.nonRetryable(refusal.message, FAILURE.processorRefused, { code: refusal.code ?? null });
}

/** A call's refusal for good as an answer the charges ledger records (result `refused`). */
export type Refused = { refused: ProcessorRefusal };

export async function refusalAsAnswer<T>(run: () => Promise<T>): Promise<T | Refused> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ProcessorRefusal) return { refused: err };
    throw err;
  }
}

export const isRefused = <T extends object>(answer: T | Refused): answer is Refused => 'refused' in answer;

/** The ledger's answer of a refusal: the processor's code kept for support. */
export const refusedAnswer = ({ refused }: Refused): ChargeAnswer => ({
  result: 'refused',
  processorDeclineCode: refused.code ?? null,
});
