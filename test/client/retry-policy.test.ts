import { backoffDelay, DEFAULT_RETRY, decide, parseRetryAfter } from '../../clients/typescript/src/retry-policy';

/** The client's retry decisions for every answer the interface and the error catalogue name. */
describe('client retry policy', () => {
  const answer = (status: number, id?: string, retryAfterMs?: number) => ({ status, id, retryAfterMs });

  it.each([
    [answer(500, '500001'), true, 'backoff'],
    [answer(500, '500010'), true, 'backoff'],
    [answer(500, '500010'), false, 'no'],
    [answer(502), true, 'backoff'],
    [answer(504), true, 'backoff'],
    [answer(500, '500001'), false, 'no'],
    [answer(503, '503002', 1000), true, 'no'],
    [answer(503, '503001', 1000), true, 'retry-after'],
    [answer(503, '503001', 1000), false, 'retry-after'],
    [answer(503, '503010', 1000), true, 'retry-after'],
    [answer(503, '503001'), true, 'backoff'],
    [answer(503, undefined, 2000), true, 'retry-after'],
    [answer(503), true, 'no'],
    [answer(503, '503001', 60_000), true, 'no'],
    [answer(429, '429001', 1000), false, 'retry-after'],
    [answer(409, '409003'), true, 'backoff'],
    [answer(409, '409009'), true, 'backoff'],
    [answer(409, '409002'), true, 'no'],
    [answer(400, '400002'), true, 'no'],
    [answer(404, '404003'), true, 'no'],
  ] as const)('%j, idempotent %s: %s', (a, idempotent, kind) => {
    expect(decide(a, idempotent, DEFAULT_RETRY).kind).toBe(kind);
  });

  it('backs off exponentially, with jitter between half and all of each step, up to the cap', () => {
    const options = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1_000 };
    expect([1, 2, 3, 5].map((n) => backoffDelay(n, options, () => 0))).toEqual([50, 100, 200, 500]);
    expect([1, 2, 3, 5].map((n) => backoffDelay(n, options, () => 1))).toEqual([100, 200, 400, 1_000]);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(parseRetryAfter('2', now)).toBe(2_000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:05 GMT', now)).toBe(5_000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});
