import { withoutNulls } from '../../src/domain/orders/evaluate-request';

const nestedArrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('withoutNulls', () => {
  it('drops null members of objects at any depth, keeps null array elements, copies without mutating', () => {
    const input = {
      a: null,
      b: 1,
      c: { d: null, e: 'x', f: [null, { g: null, h: 2 }, [null]] },
      i: [],
      j: {},
      k: false,
      l: 0,
    };
    const before = structuredClone(input);
    expect(withoutNulls(input)).toEqual({
      b: 1,
      c: { e: 'x', f: [null, { h: 2 }, [null]] },
      i: [],
      j: {},
      k: false,
      l: 0,
    });
    expect(input).toEqual(before);
    expect(Object.keys(withoutNulls({ z: 1, a: null, m: 2, b: 3 }) as object)).toEqual(['z', 'm', 'b']);
    for (const scalar of [null, 1, 'x', true, undefined]) expect(withoutNulls(scalar)).toBe(scalar);
  });

  it('keeps a "__proto__" key an own property and never changes a prototype', () => {
    const out = withoutNulls(JSON.parse('{"__proto__":{"polluted":true,"n":null}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('copes with 50,000 levels of nesting', () => {
    const deep = JSON.parse(`${'{"a":'.repeat(50_000)}{"x":null,"y":1}${'}'.repeat(50_000)}`);
    let node = withoutNulls(deep) as Record<string, unknown>;
    for (let i = 0; i < 50_000; i++) node = node.a as Record<string, unknown>;
    expect(node).toEqual({ y: 1 });
    expect(JSON.parse(nestedArrays(50_000)).length).toBe(1);
    expect(Array.isArray(withoutNulls(JSON.parse(nestedArrays(50_000))))).toBe(true);
  });
});
