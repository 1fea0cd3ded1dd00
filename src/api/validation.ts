import { z } from 'zod';
import { ApiError } from '../domain/errors';
import { validationMessage } from './validation-messages';

/**
 * A MID as sent: a UUID, its hex digits in either case, read in lower case (as Postgres writes it),
 * so a merchant's own MID in capitals is its own to every comparison and cache key after.
 */
export const merchantIdInput = (message?: string) => z.uuid(message).transform((id) => id.toLowerCase());

export interface Problem {
  field: string;
  message: string;
}

/**
 * Parses input with a zod schema. Every problem is reported at once, as a 400 validation_failed
 * whose `problems` lists `{ field, message }` for each (dotted paths); `field` and `message` of
 * the error are the first problem's, as before. Messages describe the rule, never echo the value:
 * the schema's own, else the API's wording (./validation-messages.ts).
 */
export function parseInput<T>(schema: z.ZodType<T>, value: unknown, fieldPrefix = ''): T {
  const result = schema.safeParse(value, { error: validationMessage });
  if (result.success) return result.data;
  const problems: Problem[] = result.error.issues.map((issue) => {
    const field = [fieldPrefix, ...issue.path.map(String)].filter(Boolean).join('.');
    return { field, message: field ? `${field}: ${issue.message}` : issue.message };
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
