import { NETWORK_RULES, visaCategory } from '../../src/domain/network-rules';
import { type CardDecline, retryBudget } from '../../src/domain/retry-budget';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const now = Date.parse('2026-12-01T00:00:00Z');
const decline = (agoMs: number, networkCode = '51', merchantAdviceCode: string | null = null): CardDecline => ({
  at: now - agoMs,
  networkCode,
  merchantAdviceCode,
});
const iso = (ms: number) => new Date(ms).toISOString();

describe('the card networks retry budget (docs/network-rules.md)', () => {
  it('Visa: 15 declines in 30 days fill it; the next attempt waits for the oldest to leave the window', () => {
    const declines = Array.from({ length: 15 }, (_, i) => decline((20 - i) * DAY));
    expect(retryBudget('visa', 'us_canada', declines.slice(1), now)).toEqual({
      used: 14,
      limit: 15,
      resetsAt: iso(now + 11 * DAY),
      notBefore: null,
      heldBy: null,
    });
    expect(retryBudget('visa', 'us_canada', declines, now)).toEqual({
      used: 15,
      limit: 15,
      resetsAt: iso(now + 10 * DAY),
      notBefore: iso(now + 10 * DAY),
      heldBy: 'visa_15_in_30_days',
    });
    // Declines older than 30 days no longer count.
    expect(retryBudget('visa', 'us_canada', [decline(30 * DAY), decline(31 * DAY)], now).used).toBe(0);
  });

  it('Visa category 1 stops every attempt for 30 days, whatever came after', () => {
    const budget = retryBudget('visa', 'us_canada', [decline(5 * DAY, '46'), decline(DAY, '51')], now);
    expect(budget).toMatchObject({ used: 2, notBefore: iso(now + 25 * DAY), heldBy: 'visa_category_1' });
    expect(['04', '14', '41', '43', '46', '57', 'r0', 'R3'].map(visaCategory)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
    expect(['51', '91', '54', 'N7', '05', null].map(visaCategory)).toEqual([2, 2, 3, 3, 4, 4]);
  });

  it('Mastercard: advice codes 03 and 21 stop the card for 30 days; 02 and 24-30 delay the next attempt', () => {
    for (const mac of ['03', '21'])
      expect(retryBudget('mastercard', 'us_canada', [decline(DAY, '05', mac), decline(HOUR)], now)).toMatchObject({
        notBefore: iso(now - DAY + 30 * DAY),
        heldBy: 'mastercard_mac_03_21',
      });
    const waits: Record<string, number> = {
      '02': 72 * HOUR,
      '24': HOUR,
      '25': DAY,
      '26': 2 * DAY,
      '27': 4 * DAY,
      '28': 6 * DAY,
      '29': 8 * DAY,
      '30': 10 * DAY,
    };
    for (const [mac, wait] of Object.entries(waits)) {
      const latest = decline(HOUR / 2, '05', mac);
      expect([mac, retryBudget('mastercard', 'us_canada', [latest], now).notBefore]).toEqual([
        mac,
        iso(latest.at + wait),
      ]);
    }
    // A wait applies to the attempt after the card's latest decline only.
    expect(retryBudget('mastercard', 'us_canada', [decline(2 * HOUR, '05', '26'), decline(HOUR)], now).notBefore).toBe(
      null,
    );
  });

  it('Mastercard: 20 declines in 24 hours in the US and Canada, 10 elsewhere; 35 in 30 days everywhere', () => {
    const day = Array.from({ length: 10 }, (_, i) => decline((i + 1) * HOUR));
    expect(retryBudget('mastercard', 'us_canada', day, now)).toMatchObject({ used: 10, limit: 20, notBefore: null });
    expect(retryBudget('mastercard', 'other', day, now)).toMatchObject({
      used: 10,
      limit: 10,
      notBefore: iso(now - 10 * HOUR + DAY),
      heldBy: 'mastercard_10_in_24_hours',
    });
    const month = Array.from({ length: 35 }, (_, i) => decline(((i + 2) * DAY) / 2));
    for (const region of ['other', 'us_canada'] as const)
      expect(retryBudget('mastercard', region, month, now)).toMatchObject({
        used: 35,
        limit: 35,
        heldBy: 'mastercard_35_in_30_days',
      });
  });

  it('names a source for every rule; other brands follow Visa', () => {
    for (const rule of NETWORK_RULES) expect([rule.id, rule.source.length > 20]).toEqual([rule.id, true]);
    expect(retryBudget('amex', 'us_canada', [decline(DAY, '41')], now).heldBy).toBe('visa_category_1');
  });
});
