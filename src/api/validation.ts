import type { z } from 'zod';
import { ApiError } from '../domain/errors';

/**
 * Parses input with a zod schema; the first problem becomes a 400 validation_failed naming the
 * field (dotted path). Messages describe the rule, never echo the value.
 */
export function parseInput<T>(schema: z.ZodType<T>, value: unknown, fieldPrefix = ''): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = [fieldPrefix, ...(issue?.path ?? []).map(String)].filter(Boolean).join('.');
  const problem = issue?.code === 'unrecognized_keys' ? `unknown field(s): ${issue.keys.join(', ')}` : issue?.message;
  return fail(path, problem ?? 'invalid');
}

function fail(field: string, problem: string): never {
  throw new ApiError('validation_failed', {
    ...(field ? { field } : {}),
    message: field ? `${field}: ${problem}` : problem,
  });
}
