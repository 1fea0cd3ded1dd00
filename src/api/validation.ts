import type { z } from 'zod';
import { ApiError } from '../domain/errors';

export interface Problem {
  field: string;
  message: string;
}

/**
 * Parses input with a zod schema. Every problem is reported at once, as a 400 validation_failed
 * whose `problems` lists `{ field, message }` for each (dotted paths); `field` and `message` of
 * the error are the first problem's, as before. Messages describe the rule, never echo the value.
 */
export function parseInput<T>(schema: z.ZodType<T>, value: unknown, fieldPrefix = ''): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const problems: Problem[] = result.error.issues.map((issue) => {
    const field = [fieldPrefix, ...issue.path.map(String)].filter(Boolean).join('.');
    const problem = issue.code === 'unrecognized_keys' ? `unknown field(s): ${issue.keys.join(', ')}` : issue.message;
    return { field, message: field ? `${field}: ${problem}` : problem };
  });
  return fail(problems.length ? problems : [{ field: '', message: 'invalid' }]);
}

function fail(problems: Problem[]): never {
  const [first] = problems as [Problem, ...Problem[]];
  throw new ApiError('validation_failed', {
    ...(first.field ? { field: first.field } : {}),
    message: first.message,
    extra: { problems },
  });
}
