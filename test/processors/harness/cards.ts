import type { CardBehaviour } from './card-network';

/**
 * What the simulated issuers do with each card in the processor tests. None is a sandbox test
 * card: production refuses those (docs/go-live.md).
 */
export const CARDS = {
  approves: '4242424242424242',
  /** Stripe's 3D Secure card: the cardholder must authenticate. */
  challenge: '4000002760003184',
  /** Insufficient funds, "try again later", until the third charge. */
  softThenApproves: '4000000000001000',
  /** A soft reason, but the issuer says never to try again: the advice decides. */
  doNotTryAgain: '4000000000001109',
} as const;

export const BEHAVIOURS: Record<string, CardBehaviour> = {
  [CARDS.approves]: { kind: 'approve' },
  [CARDS.challenge]: { kind: 'challenge' },
  [CARDS.softThenApproves]: {
    kind: 'decline',
    decline_code: 'insufficient_funds',
    advice_code: 'try_again_later',
    network_decline_code: '51',
    approveFromAttempt: 3,
  },
  [CARDS.doNotTryAgain]: {
    kind: 'decline',
    decline_code: 'generic_decline',
    advice_code: 'do_not_try_again',
    network_decline_code: '05',
  },
};

/** A production vault key for tests (32 bytes, base64). */
export const TEST_VAULT_KEYS = `live-test-1:${Buffer.alloc(32, 11).toString('base64')}`;
