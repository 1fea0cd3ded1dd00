import { ApplicationFailure } from '@temporalio/activity';
import { FAILURE } from '../domain/orders/failures';

/**
 * How a database error leaves an activity. Postgres SQLSTATE classes that describe the request
 * itself (22 data exception, 23 integrity violation, 42 syntax or access) can never succeed on a
 * retry: they fail the command with a defined, non-retryable `PersistenceRejected` instead of
 * wedging the order in an endless retry. Everything else (connection refused or lost, timeouts,
 * 08 connection, 40 serialization, 53 resources, 57 shutdown) is `StoreUnavailable`: retried.
 */
const PERMANENT_CLASSES = new Set(['22', '23', '42']);

export function isPermanentStoreError(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && PERMANENT_CLASSES.has(code.slice(0, 2));
}

/** Runs a database step of an activity, turning its failure into one of the two failure types. */
export async function storeStep<T>(what: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (err instanceof ApplicationFailure) throw err;
    const code = (err as { code?: unknown })?.code;
    const detail = `${what}: ${typeof code === 'string' ? `SQLSTATE ${code}` : ((err as Error)?.message ?? 'failed')}`;
    if (isPermanentStoreError(err)) throw ApplicationFailure.nonRetryable(detail, FAILURE.persistenceRejected);
    throw ApplicationFailure.retryable(detail, FAILURE.storeUnavailable);
  }
}
