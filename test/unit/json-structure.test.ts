import { findJsonStructureProblem, MAX_JSON_DEPTH } from '../../src/domain/json-structure';

/** `depth` nested arrays, or objects under the key `key`, around `inner`. */
const nestedArrays = (depth: number, inner = '') => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;
const nestedObjects = (depth: number, key = 'a', inner = '1') =>
  `${`{"${key}":`.repeat(depth)}${inner}${'}'.repeat(depth)}`;

describe('findJsonStructureProblem: depth', () => {
  it(`accepts ${MAX_JSON_DEPTH} levels of objects or arrays and refuses one more`, () => {
    for (const nested of [nestedArrays, (d: number) => nestedObjects(d)]) {
      expect(findJsonStructureProblem(nested(MAX_JSON_DEPTH))).toBeUndefined();
      expect(findJsonStructureProblem(nested(MAX_JSON_DEPTH + 1))).toEqual({ problem: 'too_deep' });
    }
    // Mixed, and siblings do not add up: only nesting counts.
    const half = MAX_JSON_DEPTH / 2;
    const mixed = (d: number) => `${'{"a":['.repeat(d)}${']}'.repeat(d)}`;
    expect(findJsonStructureProblem(mixed(half))).toBeUndefined();
    expect(findJsonStructureProblem(`[${mixed(half)}]`)).toEqual({ problem: 'too_deep' });
    expect(
      findJsonStructureProblem(
        `[${Array(1000)
          .fill(nestedArrays(MAX_JSON_DEPTH - 1))
          .join(',')}]`,
      ),
    ).toBe(undefined);
  });

  it('refuses 50,000 levels without exhausting the stack', () => {
    expect(findJsonStructureProblem(nestedArrays(50_000))).toEqual({ problem: 'too_deep' });
    expect(findJsonStructureProblem(nestedObjects(50_000, ''))).toEqual({ problem: 'too_deep' });
  });

  it('does not count brackets, braces, quotes or commas inside strings', () => {
    const tricky = JSON.stringify({ a: '[[[{{{', b: '"]}\\",', c: ['{', '}', ','], d: `${'['.repeat(100)}` });
    expect(findJsonStructureProblem(tricky)).toBeUndefined();
    expect(findJsonStructureProblem(JSON.stringify({ s: '\\', t: '\\"' }))).toBeUndefined();
  });
});

describe('findJsonStructureProblem: duplicate keys', () => {
  it('names a repeated key by its dotted path, at any depth', () => {
    expect(findJsonStructureProblem('{"amount":1999,"amount":7}')).toEqual({
      problem: 'duplicate_key',
      field: 'amount',
    });
    expect(findJsonStructureProblem('{"transaction":{"amount":1999,"currency":"USD","amount":7}}')).toEqual({
      problem: 'duplicate_key',
      field: 'transaction.amount',
    });
    expect(
      findJsonStructureProblem('{"signals":[{"kind":"a"},{"t":1,"x":{"y":[1,2]},"kind":"b","kind":"c"}]}'),
    ).toEqual({ problem: 'duplicate_key', field: 'signals.1.kind' });
    expect(findJsonStructureProblem('[[1],[{"a":{"b":1,"b":2}}]]')).toEqual({
      problem: 'duplicate_key',
      field: '1.0.a.b',
    });
    expect(findJsonStructureProblem(nestedObjects(20, 'k', '{"z":1,"z":2}'))).toEqual({
      problem: 'duplicate_key',
      field: `${'k.'.repeat(20)}z`,
    });
  });

  it('compares keys after unescaping', () => {
    for (const text of [
      '{"a":1,"\\u0061":2}',
      '{"\\u0061":1,"a":2}',
      '{"a/b":1,"a\\/b":2}',
      '{"\\"":1,"\\u0022":2}',
      '{"é":1,"\\u00e9":2}',
    ]) {
      expect(findJsonStructureProblem(text)).toMatchObject({ problem: 'duplicate_key' });
    }
    expect(findJsonStructureProblem('{"a":1,"\\u0041":2}')).toBeUndefined(); // case matters
    expect(findJsonStructureProblem('{"\\u0000":1,"\\u0000":2}')).toEqual({
      problem: 'duplicate_key',
      field: '\\u0000', // shown escaped, as the input hygiene shows keys
    });
  });

  it('lets the same key appear in different objects, and values equal to keys', () => {
    const body = {
      amount: 1,
      transaction: { amount: 2, nested: { amount: 3 } },
      list: [{ amount: 4 }, { amount: 5 }],
      note: 'amount',
      keys: ['amount', 'amount'],
      empty: {},
      '': { '': 1 },
    };
    expect(findJsonStructureProblem(JSON.stringify(body))).toBeUndefined();
    expect(findJsonStructureProblem(JSON.stringify(body, null, 2))).toBeUndefined();
    expect(findJsonStructureProblem('{"a":"b","b":"a"}')).toBeUndefined();
    expect(findJsonStructureProblem('{"a":{},"b":[],"c":{"a":[]}}')).toBeUndefined();
  });

  it('finds duplicates in a body of the largest size the API takes, in one pass', () => {
    const keys = Array.from({ length: 20_000 }, (_, i) => `"k${i}":${i}`);
    expect(findJsonStructureProblem(`{${keys.join(',')}}`)).toBeUndefined();
    expect(findJsonStructureProblem(`{${keys.join(',')},"k0":0}`)).toEqual({ problem: 'duplicate_key', field: 'k0' });
  });
});
