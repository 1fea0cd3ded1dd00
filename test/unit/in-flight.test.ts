import type { Context } from 'koa';
import { InFlight } from '../../src/api/middleware/in-flight';

describe('in-flight handlers (graceful shutdown)', () => {
  it('drains when the last running handler finishes, not before', async () => {
    const inFlight = new InFlight();
    const mw = inFlight.middleware();
    const releases: Array<() => void> = [];
    const handler = () => new Promise<void>((resolve) => releases.push(resolve));
    const a = mw({} as Context, handler);
    const b = mw({} as Context, handler);
    expect(inFlight.running).toBe(2);
    let drained = false;
    const waiting = inFlight.drained(5_000).then((ok) => {
      drained = ok;
    });
    releases[0]?.();
    await a;
    await new Promise((r) => setImmediate(r));
    expect(drained).toBe(false);
    releases[1]?.();
    await b;
    await waiting;
    expect(drained).toBe(true);
    expect(inFlight.running).toBe(0);
  });

  it('gives up after the timeout, and counts a failed handler as finished', async () => {
    const inFlight = new InFlight();
    const mw = inFlight.middleware();
    const stuck = mw({} as Context, () => new Promise<void>(() => {}));
    void stuck;
    expect(await inFlight.drained(50)).toBe(false);
    await expect(mw({} as Context, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(inFlight.running).toBe(1);
  });
});
