import type { ScoreInput } from '../../src/domain/orders/contracts';
import { scoreTransaction } from '../../src/domain/scoring';

const base: ScoreInput = {
  merchantId: 'm',
  flow: 'CIT',
  amount: 2500,
  currency: 'USD',
  responseCode: '51',
  attemptCount: 1,
  isMIT: false,
  isRecurring: false,
  bin: '411111',
  senseKey: null,
  externalOrderId: 'o',
};

/** The explainable score: each signal moves it by named points; the reasons say which. */
describe('rescue scoring', () => {
  it('counts a sent card verification value as a signal (+5), its absence as neutral', () => {
    const without = scoreTransaction(base, 'absent');
    const withCvv = scoreTransaction({ ...base, cvvPresent: true }, 'absent');
    expect(withCvv.score - without.score).toBe(5);
    expect(withCvv.reasons).toContain('cvv_present:+5');
    expect(scoreTransaction({ ...base, cvvPresent: false }, 'absent')).toEqual(without);
  });

  it('declines a hard original decline at once, whatever else it carries', () => {
    const hard = scoreTransaction({ ...base, responseCode: '43', cvvPresent: true }, 'fresh');
    expect(hard).toMatchObject({ decision: 'decline', score: 0, reasons: ['hard_decline_code_43'] });
  });
});
