import {
  isGrpcServiceError,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
} from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';

/** How the order client tells apart the errors of its calls into workflows (order-client.ts). */

/** gRPC status codes (google.rpc.Code) the client tells apart. */
const GrpcStatus = { DEADLINE_EXCEEDED: 4, NOT_FOUND: 5 } as const;

/** The ApplicationFailure type an update failed with (validator or handler), if any. */
export function failureType(err: unknown): string | undefined {
  if (!(err instanceof WorkflowUpdateFailedError)) return undefined;
  return err.cause instanceof ApplicationFailure ? (err.cause.type ?? undefined) : undefined;
}

/** The first detail of the ApplicationFailure an update failed with, if any. */
export function failureDetail(err: unknown): unknown {
  if (!(err instanceof WorkflowUpdateFailedError) || !(err.cause instanceof ApplicationFailure)) return undefined;
  return err.cause.details?.[0];
}

export function isDeadlineExceeded(err: unknown): boolean {
  if (err instanceof WorkflowUpdateRPCTimeoutOrCancelledError) return true;
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    if (isGrpcServiceError(e) && e.code === GrpcStatus.DEADLINE_EXCEEDED) return true;
  }
  return false;
}

/** The workflow is closed or was never started: by gRPC status, not by message text. */
export function isClosed(err: unknown): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    if (e instanceof WorkflowNotFoundError) return true;
    if (isGrpcServiceError(e) && e.code === GrpcStatus.NOT_FOUND) return true;
  }
  return false;
}
