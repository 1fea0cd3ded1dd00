import { readFileSync } from 'node:fs';
import path from 'node:path';
import { checkCardForVault } from '../../src/domain/card-checks';
import { checkCardNumber } from '../../src/domain/cards';
import {
  SANDBOX_BEHAVIOURS,
  SANDBOX_CARDS_BY_BEHAVIOUR,
  SANDBOX_NETWORK_BEHAVIOURS,
  SANDBOX_NETWORK_CARDS,
  type SandboxBehaviour,
} from '../../src/domain/sandbox-cards';
import { simulateCharge } from '../../src/domain/sandbox-processor';

const now = new Date('2026-11-22T00:00:00Z');
const doc = readFileSync(path.resolve(__dirname, '../../docs/sandbox.md'), 'utf8');
const BRAND_WORDS = { visa: 'Visa', mastercard: 'Mastercard', amex: 'Amex', discover: 'Discover' } as const;

/** What the simulated processor answers a card: a CIT's first attempt, its third, and after a challenge. */
function behaviourOf(pan: string) {
  const cit = { flow: 'CIT' as const, challengeCompleted: false };
  return {
    first: simulateCharge(pan, { ...cit, attempt: 1 }, 'sandbox').result,
    third: simulateCharge(pan, { ...cit, attempt: 3 }, 'sandbox').result,
    challenged: simulateCharge(pan, { ...cit, attempt: 1, challengeCompleted: true }, 'sandbox').result,
  };
}

const EXPECTED: Record<SandboxBehaviour, ReturnType<typeof behaviourOf>> = {
  approves: { first: 'approved', third: 'approved', challenged: 'approved' },
  hard_decline: { first: 'hard_decline', third: 'hard_decline', challenged: 'hard_decline' },
  challenge: { first: 'challenge_required', third: 'challenge_required', challenged: 'approved' },
  approves_third_retry: { first: 'soft_decline', third: 'approved', challenged: 'soft_decline' },
  insufficient_funds: { first: 'soft_decline', third: 'soft_decline', challenged: 'soft_decline' },
  unavailable: { first: 'unavailable', third: 'unavailable', challenged: 'unavailable' },
  closes_after_first: { first: 'soft_decline', third: 'hard_decline', challenged: 'soft_decline' },
  mac_02: { first: 'soft_decline', third: 'soft_decline', challenged: 'soft_decline' },
  mac_03: { first: 'soft_decline', third: 'soft_decline', challenged: 'soft_decline' },
  mac_21: { first: 'soft_decline', third: 'soft_decline', challenged: 'soft_decline' },
  mac_24: { first: 'soft_decline', third: 'soft_decline', challenged: 'soft_decline' },
  mac_26: { first: 'soft_decline', third: 'soft_decline', challenged: 'soft_decline' },
};
const DESCRIPTIONS: Record<SandboxBehaviour, string> = { ...SANDBOX_BEHAVIOURS, ...SANDBOX_NETWORK_BEHAVIOURS };

describe('the sandbox test cards (docs/sandbox.md)', () => {
  const cards = [
    ...Object.entries(SANDBOX_CARDS_BY_BEHAVIOUR).flatMap(([behaviour, byBrand]) =>
      Object.entries(byBrand).map(([brand, pan]) => ({ behaviour: behaviour as SandboxBehaviour, brand, pan })),
    ),
    ...Object.entries(SANDBOX_NETWORK_CARDS).map(([behaviour, card]) => ({
      behaviour: behaviour as SandboxBehaviour,
      ...card,
    })),
  ];

  it('has a Visa, Mastercard, Amex and Discover card for every behaviour, each number once', () => {
    for (const byBrand of Object.values(SANDBOX_CARDS_BY_BEHAVIOUR)) {
      expect(Object.keys(byBrand).sort()).toEqual(['amex', 'discover', 'mastercard', 'visa']);
    }
    expect(new Set(cards.map((c) => c.pan)).size).toBe(cards.length);
  });

  it('passes the card checks as its brand (prefix, length, Luhn) and is vaulted in sandbox', () => {
    for (const { brand, pan } of cards) {
      expect([pan, checkCardNumber(pan)]).toEqual([pan, { ok: true, pan, brand }]);
      const card = { cardNumber: pan, expiryMonth: 12, expiryYear: 2030 };
      expect([pan, checkCardForVault(card, 'sandbox', now).brand]).toEqual([pan, brand]);
    }
  });

  it('makes the simulated processor behave as listed', () => {
    for (const { behaviour, pan } of cards) expect([pan, behaviourOf(pan)]).toEqual([pan, EXPECTED[behaviour]]);
    // The insufficient-funds cards decline with 51, the others' soft declines are 05.
    expect(
      simulateCharge(SANDBOX_CARDS_BY_BEHAVIOUR.insufficient_funds.amex, { flow: 'ASYNC_MIT', attempt: 1 }, 'sandbox'),
    ).toEqual({ result: 'soft_decline', code: '51' });
    // The network-rule cards carry their Merchant Advice Code, or turn category 1 on the second attempt.
    const mit = (pan: string, attempt: number) => simulateCharge(pan, { flow: 'ASYNC_MIT', attempt }, 'sandbox');
    expect(mit(SANDBOX_NETWORK_CARDS.mac_26.pan, 1)).toEqual({
      result: 'soft_decline',
      code: '05',
      merchantAdviceCode: '26',
    });
    expect(mit(SANDBOX_NETWORK_CARDS.closes_after_first.pan, 2)).toEqual({ result: 'hard_decline', code: '46' });
  });

  it('is documented with its brand and behaviour', () => {
    for (const { behaviour, brand, pan } of cards) {
      const row = doc.split('\n').find((line) => line.startsWith(`| ${pan} `)) ?? '';
      const cells = row.split('|').map((cell) => cell.trim());
      expect([pan, cells[2], cells[3]]).toEqual([
        pan,
        BRAND_WORDS[brand as keyof typeof BRAND_WORDS],
        DESCRIPTIONS[behaviour],
      ]);
    }
  });
});
