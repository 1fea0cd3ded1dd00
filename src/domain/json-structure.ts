/**
 * The structure every JSON request body must have beyond being valid JSON (docs/errors.md,
 * "Request bodies"): at most MAX_JSON_DEPTH nested objects and arrays, and no key twice in one
 * object. Pure; src/api/middleware/json-body.ts and widget-body.ts apply it to the raw text.
 *
 * - Depth: the deepest body the API documents nests 5 levels (the widget's signals), so 32 is
 *   far above any legitimate request, and a body nested thousands deep cannot exhaust the stack
 *   of whatever walks it later.
 * - Duplicate keys: JSON.parse keeps the last of two equal keys, while a proxy or WAF in front may
 *   read the first: `"amount":1999,"amount":7` must not mean two things (RFC 7493, I-JSON). Keys
 *   are compared after unescaping (`"a"` and `"\u0061"` are the same key).
 *
 * Why a scanner of our own: the npm parsers that can report duplicate keys (jsonc-parser's
 * parse/visit, @humanwhocodes/momoa, json-dup-key-validator) descend recursively and themselves
 * overflow the stack on the deep bodies this check exists for. The text given here has already
 * been accepted by JSON.parse (iterative in V8), so the scanner only has to follow strings,
 * brackets and commas: one pass, linear in the text, no recursion.
 */
import { printable } from './text-hygiene';

/** The most objects and arrays a request body may nest, the outermost one included. */
export const MAX_JSON_DEPTH = 32;

export type JsonStructureFinding =
  | { problem: 'too_deep' }
  /** `field`: the dotted path of the repeated key (`transaction.amount`, `signals.0.kind`). */
  | { problem: 'duplicate_key'; field: string };

/** An open object (with the keys seen so far) or array (with the index of its current element). */
interface Open {
  keys?: Set<string>;
  key?: string;
  index: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** The first structural problem of `text`, a JSON text JSON.parse accepted, or undefined. */
export function findJsonStructureProblem(text: string): JsonStructureFinding | undefined {
  const open: Open[] = [];
  let expectingKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      let end = i + 1;
      while (end < text.length && text.charCodeAt(end) !== QUOTE) end += text.charCodeAt(end) === BACKSLASH ? 2 : 1;
      const object = open[open.length - 1];
      if (expectingKey && object?.keys) {
        const written = text.slice(i + 1, end);
        const key = written.includes('\\') ? (JSON.parse(`"${written}"`) as string) : written;
        if (object.keys.has(key)) return { problem: 'duplicate_key', field: fieldPath(open, key) };
        object.keys.add(key);
        object.key = key;
        expectingKey = false;
      }
      i = end;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (open.length === MAX_JSON_DEPTH) return { problem: 'too_deep' };
      open.push(c === OPEN_OBJECT ? { keys: new Set(), index: 0 } : { index: 0 });
      expectingKey = c === OPEN_OBJECT;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      open.pop();
      expectingKey = false;
    } else if (c === COMMA) {
      const container = open[open.length - 1];
      if (container?.keys) expectingKey = true;
      else if (container) container.index++;
    }
  }
  return undefined;
}

/** The dotted path of `key` in the innermost open object: each enclosing key or array index. */
function fieldPath(open: Open[], key: string): string {
  const parents = open.slice(0, -1).map((o) => (o.keys ? printable(o.key ?? '') : String(o.index)));
  return [...parents, printable(key)].join('.');
}
