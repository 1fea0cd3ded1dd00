/** One catalogue entry: the six-digit id, its HTTP status, the message and how a client should retry. */

export type RetryAdvice = 'no' | 'after-fix' | 'backoff' | 'retry-after' | 'refresh-token-once';

export interface ErrorDefinition {
  id: string;
  status: number;
  message: string;
  retry: RetryAdvice;
}
