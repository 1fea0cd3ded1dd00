import { EventuallyTimeout, eventually } from '../helpers/eventually';

describe('eventually(), the one wait helper of the tests', () => {
  it('returns the first value that satisfies the condition', async () => {
    let n = 0;
    await expect(
      eventually(
        () => ++n,
        (v) => v === 3,
        { describe: 'three', intervalMs: 1 },
      ),
    ).resolves.toBe(3);
    expect(n).toBe(3);
  });

  it('throws on timeout with the description and the last value seen, never returning it', async () => {
    let n = 0;
    const waiting = eventually(
      async () => ({ count: ++n }),
      () => false,
      { describe: () => 'a count that never comes', timeoutMs: 50, intervalMs: 10 },
    );
    await expect(waiting).rejects.toBeInstanceOf(EventuallyTimeout);
    const error = (await waiting.catch((e: unknown) => e)) as EventuallyTimeout;
    expect(error.message).toContain('a count that never comes');
    expect(error.message).toContain(`{ count: ${n} }`);
    expect(error.lastValue).toEqual({ count: n });
    expect(n).toBeGreaterThanOrEqual(2);
  });

  it('asks once more after the deadline, so a slow probe is not judged on a stale answer', async () => {
    let n = 0;
    const slow = async () => {
      n += 1;
      await new Promise((r) => setTimeout(r, 30));
      return n;
    };
    await expect(eventually(slow, (v) => v >= 2, { describe: 'a second answer', timeoutMs: 20 })).resolves.toBe(2);
  });

  it('ends at once when the probe throws', async () => {
    const started = Date.now();
    await expect(
      eventually(
        () => {
          throw new Error('probe broke');
        },
        () => true,
        { describe: 'anything', timeoutMs: 10_000 },
      ),
    ).rejects.toThrow('probe broke');
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
