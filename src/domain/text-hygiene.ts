/**
 * Input hygiene: which strings the API refuses, whatever field they arrive in (docs/errors.md,
 * "Text the API refuses"). Pure functions; src/api/middleware/input-hygiene.ts applies them to
 * every body, path parameter and query string before a route does anything.
 *
 * - Control characters (Unicode category Cc: U+0000-U+001F, U+007F-U+009F) are refused in every
 *   string and every object key. TAB, LF and CR are the one exception, and only in the prose
 *   fields of FREE_TEXT_FIELDS (descriptions and reasons), where a line break is ordinary text.
 * - Unpaired UTF-16 surrogates (a JSON escape such as "\ud800" with no partner) are refused
 *   everywhere: they are not text, Postgres cannot store them, and they break UTF-8 consumers.
 * - Card numbers are refused in the free-text fields of FREE_TEXT_FIELDS (names, descriptions,
 *   reasons): they would be stored and shown in clear. Identifier fields (externalOrderId, ids,
 *   keys) and the card fields themselves are never screened for card numbers.
 */
import { containsCardNumber } from './sensitive-data';

/** How a free-text field may be written: one line (names) or prose (descriptions, reasons). */
export type FreeTextKind = 'line' | 'prose';

/**
 * The free-text fields of the API, per route (`METHOD /router/path`) and body field (dotted
 * path): the one list screened for card numbers, and the only fields where TAB/LF/CR (prose) are
 * allowed. A new name, description or reason field belongs here.
 */
export const FREE_TEXT_FIELDS: Readonly<Record<string, Readonly<Record<string, FreeTextKind>>>> = {
  'POST /v1/api-keys': { name: 'line', description: 'prose' },
  'PUT /v1/api-keys/:id': { name: 'line', description: 'prose' },
  'POST /v1/merchants/:mid/sites': { name: 'line' },
  'PUT /v1/merchants/:mid/sites/:siteId': { name: 'line' },
  'POST /v1/merchants/:mid/tokenization-keys': { name: 'line' },
  'POST /v1/admin/partners': { name: 'line', 'apiKey.name': 'line' },
  'POST /v1/webhooks': { description: 'prose' },
  'PUT /v1/webhooks/:id': { description: 'prose' },
  'POST /v1/applications': { 'business.legalName': 'line' },
  'POST /v1/applications/:id/submit': { reason: 'prose' },
  'POST /v1/applications/:id/cancel': { reason: 'prose' },
  'POST /v1/admin/applications/:id/approve': { reason: 'prose' },
  'POST /v1/admin/applications/:id/decline': { reason: 'prose' },
  'POST /v1/admin/applications/:id/convert': { reason: 'prose' },
  'POST /v1/admin/orders/:orderId/chargebacks': { reason: 'prose' },
  'POST /v1/admin/orders/:orderId/early-warnings': { reason: 'prose' },
};

export type TextProblem = 'control_character' | 'unpaired_surrogate';
export type TextFindingProblem = TextProblem | 'invalid_utf8' | 'card_number';

export interface TextFinding {
  /** Dotted path of the offending field (`transaction.responseCode`, `query.mid`, `path.id`). */
  field: string;
  problem: TextFindingProblem;
}

const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;

/** The first reason `value` is not acceptable text, or undefined when it is. */
export function textProblem(value: string, options: { lineBreaks?: boolean } = {}): TextProblem | undefined {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20) {
      if (options.lineBreaks && (c === TAB || c === LF || c === CR)) continue;
      return 'control_character';
    }
    if (c >= 0x7f && c <= 0x9f) return 'control_character';
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = value.charCodeAt(i + 1); // NaN past the end
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      return 'unpaired_surrogate';
    }
    if (c >= 0xdc00 && c <= 0xdfff) return 'unpaired_surrogate';
  }
  return undefined;
}

/** `value` with refused characters written as \uXXXX, so a field name can be shown safely. */
export function printable(value: string): string {
  const escaped = (c: number) => `\\u${c.toString(16).padStart(4, '0')}`;
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += value.slice(i, i + 2);
        i++;
      } else out += escaped(c);
    } else if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || (c >= 0xdc00 && c <= 0xdfff)) out += escaped(c);
    else out += value.charAt(i);
  }
  return out;
}

/**
 * The first refused string in a parsed input (a JSON body at any depth, a query object), keys
 * included, or undefined. `prefix` starts every field path (`query`); `freeText` names the
 * free-text fields of this route (FREE_TEXT_FIELDS), screened for card numbers. Iterative, so a
 * deeply nested body cannot exhaust the stack.
 */
export function findUnsafeText(
  value: unknown,
  options: { prefix?: string; freeText?: Readonly<Record<string, FreeTextKind>> } = {},
): TextFinding | undefined {
  const join = (base: string, key: string) => (base ? `${base}.${key}` : key);
  const root = options.prefix ?? '';
  // Bodies are small (256 KB at most): a depth-first walk in document order.
  const stack: Array<{ value: unknown; field: string; relative: string }> = [{ value, field: root, relative: '' }];
  while (stack.length) {
    const item = stack.pop() as { value: unknown; field: string; relative: string };
    const current = item.value;
    if (typeof current === 'string') {
      const kind = options.freeText?.[item.relative];
      const problem = textProblem(current, { lineBreaks: kind === 'prose' });
      if (problem) return { field: item.field || root, problem };
      if (kind && containsCardNumber(current)) return { field: item.field, problem: 'card_number' };
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) {
        stack.push({ value: current[i], field: join(item.field, String(i)), relative: join(item.relative, String(i)) });
      }
    } else if (current !== null && typeof current === 'object') {
      const entries = Object.entries(current as Record<string, unknown>);
      for (const [key] of entries) {
        const problem = textProblem(key);
        if (problem) return { field: join(item.field, printable(key)), problem };
      }
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i] as [string, unknown];
        stack.push({ value: child, field: join(item.field, key), relative: join(item.relative, key) });
      }
    }
  }
  return undefined;
}

/**
 * Percent-decoding that refuses what is not UTF-8: a %XX sequence that decodes to invalid UTF-8
 * (an encoded surrogate such as %ED%A0%80, an overlong form, a stray continuation byte) gives
 * undefined. A `%` not followed by two hex digits is kept as written, as browsers do.
 */
export function percentDecodeStrict(raw: string, options: { plusIsSpace?: boolean } = {}): string | undefined {
  const text = options.plusIsSpace ? raw.replace(/\+/g, ' ') : raw;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
      const bytes = new Uint8Array(run.length / 3);
      for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(run.slice(i * 3 + 1, i * 3 + 3), 16);
      return decoder.decode(bytes);
    });
  } catch {
    return undefined;
  }
}

/**
 * The first refused pair of a form-encoded text (a query string, an x-www-form-urlencoded body):
 * a name or value that is not percent-encoded UTF-8, or that decodes to refused text.
 */
export function findUnsafeFormText(raw: string, prefix = ''): TextFinding | undefined {
  const join = (key: string) => (prefix ? `${prefix}.${key}` : key);
  for (const pair of raw.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const rawKey = eq < 0 ? pair : pair.slice(0, eq);
    const rawValue = eq < 0 ? '' : pair.slice(eq + 1);
    const key = percentDecodeStrict(rawKey, { plusIsSpace: true });
    if (key === undefined) return { field: join(printable(rawKey)), problem: 'invalid_utf8' };
    const keyProblem = textProblem(key);
    if (keyProblem) return { field: join(printable(key)), problem: keyProblem };
    const value = percentDecodeStrict(rawValue, { plusIsSpace: true });
    if (value === undefined) return { field: join(key), problem: 'invalid_utf8' };
    const valueProblem = textProblem(value);
    if (valueProblem) return { field: join(key), problem: valueProblem };
  }
  return undefined;
}

/** The human message of a finding: the rule, never the value. */
export function findingMessage(finding: TextFinding): string {
  switch (finding.problem) {
    case 'card_number':
      return `${finding.field}: looks like a card number; card numbers belong only in the card fields (paymentMethod.cardNumber, /v1/tokenize), never in free text`;
    case 'unpaired_surrogate':
      return `${finding.field}: must be valid Unicode text (no unpaired UTF-16 surrogates)`;
    case 'invalid_utf8':
      return `${finding.field}: must be percent-encoded UTF-8 (this decodes to invalid UTF-8, such as an encoded surrogate)`;
    default:
      return `${finding.field}: must not contain control characters (U+0000-U+001F, U+007F-U+009F; TAB, LF and CR only in descriptions and reasons)`;
  }
}
