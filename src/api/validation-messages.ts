import type { z } from 'zod';

/**
 * The one zod error map of the API: every validation problem in plain words ("required", "must
 * be a whole number from 1 to 12"), never zod's defaults ("Invalid input: expected number,
 * received undefined"). parseInput (./validation.ts) passes it to every parse; a message a schema
 * states itself (`z.uuid('must be a GUID')`) still wins. Messages state the rule, never the value.
 */
type Issue = z.core.$ZodRawIssue;

const TYPE_WORDS: Record<string, string> = {
  string: 'text (a JSON string)',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list (a JSON array)',
  object: 'an object',
  null: 'null',
  bigint: 'a whole number',
  date: 'a date',
};

const FORMAT_WORDS: Record<string, string> = {
  uuid: 'a UUID',
  guid: 'a UUID',
  email: 'an e-mail address',
  url: 'a URL',
  datetime: 'an ISO 8601 timestamp such as 2025-03-14T09:26:53Z',
  date: 'an ISO 8601 date such as 2025-03-14',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
  base64: 'base64 text',
  base64url: 'base64url text',
};

interface Bound {
  value: number;
  inclusive: boolean;
}

/** A number schema's bounds, from its checks (zod keeps them there). */
function boundsOf(schema: unknown): { min?: Bound; max?: Bound; isInt: boolean } {
  const def = (schema as { _zod?: { def?: { checks?: Array<{ _zod: { def: Record<string, unknown> } }> } } })?._zod
    ?.def;
  const out: { min?: Bound; max?: Bound; isInt: boolean } = { isInt: false };
  for (const check of def?.checks ?? []) {
    const c = check._zod.def;
    if (c.check === 'number_format' && String(c.format).includes('int')) out.isInt = true;
    const bound = { value: Number(c.value), inclusive: c.inclusive !== false };
    if (c.check === 'greater_than') out.min = bound;
    if (c.check === 'less_than') out.max = bound;
  }
  return out;
}

/** "a whole number from 1 to 12", from a number schema's own bounds. */
function numberRule(schema: unknown, word: string): string {
  const { min, max, isInt } = boundsOf(schema);
  const kind = isInt || word === 'int' ? 'a whole number' : 'a number';
  if (min?.inclusive && max?.inclusive) return `${kind} from ${min.value} to ${max.value}`;
  const parts = [
    min && (min.inclusive ? `at least ${min.value}` : `greater than ${min.value}`),
    max && (max.inclusive ? `at most ${max.value}` : `less than ${max.value}`),
  ].filter(Boolean);
  return parts.length ? `${kind} ${parts.join(' and ')}` : kind;
}

function expected(issue: Extract<Issue, { code: 'invalid_type' }>): string {
  const word = issue.expected as string;
  if (word === 'number' || word === 'int') return numberRule(issue.inst, word);
  return TYPE_WORDS[word] ?? word;
}

function sizeRule(issue: Extract<Issue, { code: 'too_big' | 'too_small' }>): string {
  const big = issue.code === 'too_big';
  const limit = Number(big ? issue.maximum : issue.minimum);
  const inclusive = issue.inclusive !== false;
  switch (issue.origin) {
    case 'string':
      if (!big && limit === 1) return 'must not be empty';
      return `must be at ${big ? 'most' : 'least'} ${limit} character${limit === 1 ? '' : 's'} long`;
    case 'array':
    case 'set':
      if (!big && limit === 1) return 'must list at least one item';
      return `must list at ${big ? 'most' : 'least'} ${limit} item${limit === 1 ? '' : 's'}`;
    default:
      if (inclusive) return `must be ${limit} or ${big ? 'less' : 'more'}`;
      return `must be ${big ? 'less' : 'greater'} than ${limit}`;
  }
}

function oneOf(values: readonly unknown[]): string {
  const words = values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  return words.length === 1 ? `must be ${words[0]}` : `must be one of ${words.join(', ')}`;
}

/** The union's options by what each expected, when they all failed on the value's type. */
function unionRule(issue: Extract<Issue, { code: 'invalid_union' }>): string {
  if (issue.errors.length === 0) return 'is not one of the accepted kinds';
  const types = issue.errors.map((errs) => errs.find((e) => e.code === 'invalid_type' && e.path.length === 0));
  if (types.every(Boolean)) {
    const words = [...new Set(types.map((t) => TYPE_WORDS[(t as { expected: string }).expected] ?? 'another type'))];
    return `must be ${words.join(' or ')}`;
  }
  return 'is not in any of the accepted forms';
}

export function validationMessage(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'required';
      return `must be ${expected(issue)}${issue.input === null ? ', not null' : ''}`;
    case 'too_big':
    case 'too_small':
      return sizeRule(issue);
    case 'invalid_format':
      if (issue.format === 'regex' || issue.format === 'starts_with' || issue.format === 'ends_with') {
        return 'is not in the expected format';
      }
      return `must be ${FORMAT_WORDS[issue.format] ?? `a valid ${issue.format}`}`;
    case 'invalid_value':
      return oneOf(issue.values);
    case 'invalid_union':
      return unionRule(issue);
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    case 'unrecognized_keys':
      return `unknown field(s): ${issue.keys.join(', ')}`;
    case 'invalid_key':
      return 'has a key that is not allowed';
    case 'invalid_element':
      return 'has an element that is not allowed';
    default:
      return 'is invalid';
  }
}
