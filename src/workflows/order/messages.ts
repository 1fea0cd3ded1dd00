import * as wf from '@temporalio/workflow';
import type {
  CancelInput,
  CancelResult,
  CaptureInput,
  CaptureResult,
  ChallengeInput,
  ChallengeResult,
  EvaluateInput,
  EvaluateResult,
  OrderState,
} from '../../domain/orders/contracts';

/**
 * The order workflow's messages, shared by the workflow and the API (which imports this file,
 * not the implementation). Refunds are not among them: they run in the refund workflow.
 */
export const evaluateUpdate = wf.defineUpdate<EvaluateResult, [EvaluateInput]>('evaluate');
export const captureUpdate = wf.defineUpdate<CaptureResult, [CaptureInput]>('capture');
export const cancelUpdate = wf.defineUpdate<CancelResult, [CancelInput]>('cancel');
export const challengeUpdate = wf.defineUpdate<ChallengeResult, [ChallengeInput]>('challenge');
export const orderStateQuery = wf.defineQuery<OrderState | null>('state');

export type OrderCommand = typeof captureUpdate | typeof cancelUpdate | typeof challengeUpdate;
