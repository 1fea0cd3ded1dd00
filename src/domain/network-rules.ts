/**
 * The card networks' retry rules, as data (docs/network-rules.md): how many declined attempts a
 * merchant may make on one card, and which declines forbid or delay the next one. They count per
 * card and merchant, across orders; src/domain/retry-budget.ts applies them to the card's
 * declines in the charges ledger. Each rule names its source; docs/network-rules.md says which
 * parts are our reading of the networks' published rules rather than their text.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The networks whose rules the service enforces; other brands follow Visa's (the strictest count). */
export type CardNetwork = 'visa' | 'mastercard';

/** Mastercard's excessive-attempt thresholds differ by region (a deployment setting, CARD_NETWORK_REGION). */
export const NETWORK_REGIONS = ['us_canada', 'other'] as const;
export type NetworkRegion = (typeof NETWORK_REGIONS)[number];
export const DEFAULT_NETWORK_REGION: NetworkRegion = 'us_canada';

/**
 * Visa's decline categories (Visa Rules, "Excessive reattempts", from April 2021). Category 1: the
 * issuer will never approve; no re-attempt is allowed. Category 2 (cannot approve now) and 3 (data
 * quality) allow at most 15 re-attempts in 30 days; every other code is category 4 (generic), to
 * which the service applies the same limit.
 */
export const VISA_CATEGORY_1 = ['04', '07', '12', '14', '15', '41', '43', '46', '57', 'R0', 'R1', 'R3'] as const;
export const VISA_CATEGORY_2 = [
  '03',
  '19',
  '39',
  '51',
  '52',
  '53',
  '59',
  '61',
  '62',
  '65',
  '75',
  '78',
  '86',
  '91',
  '93',
  '96',
  'N3',
  'N4',
] as const;
export const VISA_CATEGORY_3 = ['54', '55', '70', '82', '1A', '6P', 'N7'] as const;

export type VisaCategory = 1 | 2 | 3 | 4;

export function visaCategory(code: string | null): VisaCategory {
  const c = (code ?? '').trim().toUpperCase();
  if ((VISA_CATEGORY_1 as readonly string[]).includes(c)) return 1;
  if ((VISA_CATEGORY_2 as readonly string[]).includes(c)) return 2;
  if ((VISA_CATEGORY_3 as readonly string[]).includes(c)) return 3;
  return 4;
}

/** At most `maxDeclines` declined attempts on the card in any `windowMs`. */
export interface LimitRule {
  kind: 'limit';
  id: string;
  network: CardNetwork;
  /** The regions it applies in (Mastercard's thresholds differ by region). */
  regions: readonly NetworkRegion[];
  maxDeclines: number;
  windowMs: number;
  source: string;
}

/**
 * A decline that holds the card's next attempt back for `holdMs` after it: `stop` rules forbid
 * every attempt for that long whatever came after; `wait` rules delay only the attempt that
 * follows the card's latest decline.
 */
export interface HoldRule {
  kind: 'stop' | 'wait';
  id: string;
  network: CardNetwork;
  /** The decline matches by its network response code, or by Mastercard's Merchant Advice Code. */
  match: { networkCodes: readonly string[] } | { merchantAdviceCodes: readonly string[] };
  holdMs: number;
  source: string;
}

export type NetworkRule = LimitRule | HoldRule;

const MASTERCARD_EXCESSIVE = 'Mastercard Transaction Processing Excellence: Excessive Attempts (by region)';
const MASTERCARD_MAC = 'Mastercard Merchant Advice Codes (Transaction Processing Excellence, MAC program)';

/** A Mastercard Merchant Advice Code naming its own wait ("try again after ..."). */
const macWait = (code: string, holdMs: number, words: string): HoldRule => ({
  kind: 'wait',
  id: `mastercard_mac_${code}`,
  network: 'mastercard',
  match: { merchantAdviceCodes: [code] },
  holdMs,
  source: `${MASTERCARD_MAC}: MAC ${code}, retry after ${words}`,
});

export const NETWORK_RULES: readonly NetworkRule[] = [
  {
    kind: 'stop',
    id: 'visa_category_1',
    network: 'visa',
    match: { networkCodes: VISA_CATEGORY_1 },
    holdMs: 30 * DAY,
    source: 'Visa Rules, Excessive reattempts: category 1 (issuer will never approve), no reattempt',
  },
  {
    kind: 'limit',
    id: 'visa_15_in_30_days',
    network: 'visa',
    regions: NETWORK_REGIONS,
    maxDeclines: 15,
    windowMs: 30 * DAY,
    source: 'Visa Rules, Excessive reattempts: categories 2 and 3, at most 15 reattempts in 30 days',
  },
  {
    kind: 'limit',
    id: 'mastercard_20_in_24_hours',
    network: 'mastercard',
    regions: ['us_canada'],
    maxDeclines: 20,
    windowMs: DAY,
    source: `${MASTERCARD_EXCESSIVE}: US and Canada, 20 declines in 24 hours`,
  },
  {
    kind: 'limit',
    id: 'mastercard_10_in_24_hours',
    network: 'mastercard',
    regions: ['other'],
    maxDeclines: 10,
    windowMs: DAY,
    source: `${MASTERCARD_EXCESSIVE}: other regions, 10 declines in 24 hours`,
  },
  {
    kind: 'limit',
    id: 'mastercard_35_in_30_days',
    network: 'mastercard',
    // Canada since 1 April 2024; applied to the US too (the stricter reading: docs/network-rules.md).
    regions: NETWORK_REGIONS,
    maxDeclines: 35,
    windowMs: 30 * DAY,
    source: `${MASTERCARD_EXCESSIVE}: 35 declines in 30 days (Canada since 1 April 2024, other regions)`,
  },
  {
    kind: 'stop',
    id: 'mastercard_mac_03_21',
    network: 'mastercard',
    match: { merchantAdviceCodes: ['03', '21'] },
    holdMs: 30 * DAY,
    source: `${MASTERCARD_MAC}: MAC 03 (do not try again) and 21 (payment cancelled), fee for any retry in 30 days`,
  },
  {
    kind: 'wait',
    id: 'mastercard_mac_02',
    network: 'mastercard',
    match: { merchantAdviceCodes: ['02'] },
    holdMs: 72 * HOUR,
    source: `${MASTERCARD_MAC}: MAC 02 (cannot approve at this time, try again later), 72 hours`,
  },
  macWait('24', HOUR, '1 hour'),
  macWait('25', DAY, '24 hours'),
  macWait('26', 2 * DAY, '2 days'),
  macWait('27', 4 * DAY, '4 days'),
  macWait('28', 6 * DAY, '6 days'),
  macWait('29', 8 * DAY, '8 days'),
  macWait('30', 10 * DAY, '10 days'),
];

/** How far back the card's declines matter: the longest rule's reach. */
export const NETWORK_RULES_LOOKBACK_MS = Math.max(
  ...NETWORK_RULES.map((r) => (r.kind === 'limit' ? r.windowMs : r.holdMs)),
);

/** The network whose rules a card follows: Mastercard's, else Visa's (Amex, Discover: the same count). */
export function networkOf(brand: string): CardNetwork {
  return brand === 'mastercard' ? 'mastercard' : 'visa';
}

/** The rules a card of this network follows in this region. */
export function rulesFor(network: CardNetwork, region: NetworkRegion): NetworkRule[] {
  return NETWORK_RULES.filter((r) => r.network === network && (r.kind !== 'limit' || r.regions.includes(region)));
}
