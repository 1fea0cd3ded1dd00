import { releaseAtLeast } from '../../src/orders/accepted-rescues';

describe('releaseAtLeast (which Temporal servers can lower a running order’s priority)', () => {
  it.each([
    ['1.31.0', true],
    ['1.32.2', true],
    ['v1.31.0', true],
    ['2.0.0', true],
    ['1.29.1', false],
    ['1.30.9', false],
    ['0.40.0', false],
    ['', false],
    [undefined, false],
    ['dev', false],
  ])('%s: %s', (version, expected) => {
    expect(releaseAtLeast(version, [1, 31])).toBe(expected);
  });
});
