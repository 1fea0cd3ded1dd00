import { faultPointOf } from '../../src/activities/fault-points';

// The kill-point tests' hook (src/activities/fault-points.ts) must stay inert outside a test.
describe('FAULT_KILL_AT', () => {
  it('is inert when unset, in production as in the sandbox', () => {
    expect(faultPointOf({})).toBeUndefined();
    expect(faultPointOf({ FC_ENVIRONMENT: 'production' })).toBeUndefined();
  });

  it('arms a known point in the sandbox, and in production only with FC_TEST_FAULTS=1', () => {
    expect(faultPointOf({ FAULT_KILL_AT: 'charge.after-answer' })).toBe('charge.after-answer');
    expect(
      faultPointOf({ FAULT_KILL_AT: 'charge.after-record', FC_ENVIRONMENT: 'production', FC_TEST_FAULTS: '1' }),
    ).toBe('charge.after-record');
    expect(() => faultPointOf({ FAULT_KILL_AT: 'charge.after-intent', FC_ENVIRONMENT: 'production' })).toThrow(
      /FC_TEST_FAULTS/,
    );
    expect(() =>
      faultPointOf({ FAULT_KILL_AT: 'charge.after-intent', FC_ENVIRONMENT: 'production', FC_TEST_FAULTS: 'yes' }),
    ).toThrow(/FC_TEST_FAULTS/);
  });

  it('refuses a point it does not know', () => {
    expect(() => faultPointOf({ FAULT_KILL_AT: 'charge.somewhere' })).toThrow(/FAULT_KILL_AT must be one of/);
  });
});
