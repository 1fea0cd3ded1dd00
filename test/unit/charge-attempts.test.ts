import {
  type ChargeAttempt,
  type ChargeState,
  chargeMoveAllowed,
  moveCharge,
  UndeclaredChargeMoveError,
  unsettledCharge,
} from '../../src/domain/orders/charge-attempts';

const STATES: ChargeState[] = ['intent', 'sent', 'answered', 'reversed', 'unknown'];

const attempt = (overrides: Partial<ChargeAttempt> = {}): ChargeAttempt => ({
  kind: 'sale',
  attempt: 1,
  key: '00000000-0000-4000-8000-000000000001',
  state: 'intent',
  result: null,
  networkCode: null,
  advice: null,
  createdAtUtc: '2026-11-27T10:00:00.000Z',
  answeredAtUtc: null,
  ...overrides,
});

/** The charge attempts' own transition table (src/domain/orders/charge-attempts.ts). */
describe('charge attempt transitions', () => {
  it('declares exactly the moves of the ledger: intent first, an answer or no answer, then a reversal', () => {
    const allowed = STATES.flatMap((from) =>
      STATES.filter((to) => chargeMoveAllowed(from, to)).map((to) => `${from}>${to}`),
    );
    expect(allowed.sort()).toEqual(
      [
        'intent>sent',
        'sent>sent',
        'sent>answered',
        'sent>unknown',
        'sent>reversed',
        'unknown>sent',
        'answered>answered',
        'answered>reversed',
        'reversed>reversed',
      ].sort(),
    );
  });

  it('never goes back: an answered charge is not sent again as new, a reversed one never un-reversed', () => {
    for (const [from, to] of [
      ['answered', 'sent'],
      ['answered', 'unknown'],
      ['reversed', 'answered'],
      ['intent', 'answered'],
      ['unknown', 'answered'],
    ] as const)
      expect(() => moveCharge(attempt({ state: from }), to)).toThrow(UndeclaredChargeMoveError);
  });

  it('the unsettled charge is the one sent with no answer known (intent, sent, unknown); captures and voids never are', () => {
    expect(unsettledCharge([attempt({ state: 'answered' }), attempt({ attempt: 2, state: 'unknown' })])).toMatchObject({
      attempt: 2,
    });
    expect(
      unsettledCharge([attempt({ state: 'answered' }), attempt({ attempt: 2, state: 'reversed' })]),
    ).toBeUndefined();
    expect(unsettledCharge([attempt({ kind: 'void', state: 'sent' })])).toBeUndefined();
    expect(moveCharge(attempt(), 'sent')).toMatchObject({ state: 'sent', key: attempt().key });
  });
});
