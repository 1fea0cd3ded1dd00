/**
 * The sandbox's test cards (docs/sandbox.md): for each simulated processor behaviour, one card
 * of each brand, all well-known public test numbers that pass the brand, length and Luhn checks
 * (src/domain/cards.ts). Sandbox accepts no other card number; production refuses these.
 */
export const SANDBOX_BEHAVIOURS = {
  approves: 'Approves.',
  hard_decline: 'Hard decline (never retried).',
  challenge: 'CIT answers CHALLENGE.',
  approves_third_retry: 'Soft-declines twice, then approves on the third retry.',
  insufficient_funds: 'Insufficient funds on every attempt (an async MIT rescue expires).',
  unavailable: 'Processor unavailable: evaluate answers 503 `503002 rescue_unavailable` (do not retry).',
} as const;

/**
 * The card networks' retry rules across orders (docs/network-rules.md): declines that forbid or
 * delay a card's later attempts. One card each, of the brand whose network sends that answer.
 */
export const SANDBOX_NETWORK_BEHAVIOURS = {
  closes_after_first: 'Soft-declines (05) once, then 46 (closed account, Visa category 1) on every later attempt.',
  mac_02: 'Declines 05 with Merchant Advice Code 02: the next attempt waits 72 hours.',
  mac_03: 'Declines 05 with Merchant Advice Code 03 (do not try again): no attempt on the card for 30 days.',
  mac_21: 'Declines 05 with Merchant Advice Code 21 (payment cancelled): no attempt on the card for 30 days.',
  mac_24: 'Declines 05 with Merchant Advice Code 24: the next attempt waits 1 hour.',
  mac_26: 'Declines 05 with Merchant Advice Code 26: the next attempt waits 2 days.',
} as const;

export type SandboxNetworkBehaviour = keyof typeof SANDBOX_NETWORK_BEHAVIOURS;
export type SandboxBehaviour = keyof typeof SANDBOX_BEHAVIOURS | SandboxNetworkBehaviour;
export type SandboxBrand = 'visa' | 'mastercard' | 'amex' | 'discover';

/** Card number by behaviour and brand (Visa first: the numbers the sandbox has always had). */
export const SANDBOX_CARDS_BY_BEHAVIOUR: Record<keyof typeof SANDBOX_BEHAVIOURS, Record<SandboxBrand, string>> = {
  approves: {
    visa: '4111111111111111',
    mastercard: '5454545454545454',
    amex: '378282246310005',
    discover: '6011111111111117',
  },
  hard_decline: {
    visa: '4000000000000002',
    mastercard: '5105105105105100',
    amex: '371449635398431',
    discover: '6011000990139424',
  },
  challenge: {
    visa: '4000000000003220',
    mastercard: '2223003122003222',
    amex: '378734493671000',
    discover: '6011000000000012',
  },
  approves_third_retry: {
    visa: '4000000000000341',
    mastercard: '5200828282828210',
    amex: '370000000000002',
    discover: '6011981111111113',
  },
  insufficient_funds: {
    visa: '4000000000009995',
    mastercard: '5425233430109903',
    amex: '340000000000009',
    discover: '6445644564456445',
  },
  unavailable: {
    visa: '4000000000000119',
    mastercard: '2222400010000008',
    amex: '374245455400126',
    discover: '6011601160116611',
  },
};

/** The network-rule cards (Luhn-valid numbers of the brand's test ranges). */
export const SANDBOX_NETWORK_CARDS: Record<SandboxNetworkBehaviour, { brand: SandboxBrand; pan: string }> = {
  closes_after_first: { brand: 'visa', pan: '4000000000000465' },
  mac_02: { brand: 'mastercard', pan: '5555555555550020' },
  mac_03: { brand: 'mastercard', pan: '5555555555550038' },
  mac_21: { brand: 'mastercard', pan: '5555555555550210' },
  mac_24: { brand: 'mastercard', pan: '5555555555550244' },
  mac_26: { brand: 'mastercard', pan: '5555555555550269' },
};

/** Every test card number and what the simulated processor does with it. */
export const SANDBOX_TEST_CARDS: Readonly<Record<string, SandboxBehaviour>> = Object.fromEntries([
  ...Object.entries(SANDBOX_CARDS_BY_BEHAVIOUR).flatMap(([behaviour, byBrand]) =>
    Object.values(byBrand).map((pan) => [pan, behaviour as SandboxBehaviour]),
  ),
  ...Object.entries(SANDBOX_NETWORK_CARDS).map(([behaviour, { pan }]) => [pan, behaviour as SandboxBehaviour]),
]);

export function isSandboxTestCard(pan: string): boolean {
  return Object.hasOwn(SANDBOX_TEST_CARDS, pan);
}
