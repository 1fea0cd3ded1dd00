import { judgeSenseSession, SENSE_SESSION_STALE_AFTER_MS } from '../../src/domain/sense-session';

describe('when a widget session contributes device signals to evaluate', () => {
  const now = new Date('2026-11-21T12:00:00Z');
  const seen = (msAgo: number, externalOrderId: string | null = null) => ({
    lastSeenAt: new Date(now.getTime() - msAgo),
    externalOrderId,
  });
  const evaluate = { externalOrderId: 'order-1' };

  it('is fresh up to 30 minutes after it was last seen, stale after', () => {
    expect(SENSE_SESSION_STALE_AFTER_MS).toBe(30 * 60_000);
    expect(judgeSenseSession(seen(0), evaluate, now)).toBe('fresh');
    expect(judgeSenseSession(seen(SENSE_SESSION_STALE_AFTER_MS), evaluate, now)).toBe('fresh');
    expect(judgeSenseSession(seen(SENSE_SESSION_STALE_AFTER_MS + 1), evaluate, now)).toBe('stale');
  });

  it('needs the order the page bound, when it bound one, to be the evaluated order', () => {
    expect(judgeSenseSession(seen(1000, 'order-1'), evaluate, now)).toBe('fresh');
    expect(judgeSenseSession(seen(1000, 'order-2'), evaluate, now)).toBe('order_mismatch');
    expect(judgeSenseSession(seen(1000, null), evaluate, now)).toBe('fresh'); // senseKey alone joins
  });

  it('is absent without a session', () => {
    expect(judgeSenseSession(undefined, evaluate, now)).toBe('no_session');
  });
});
