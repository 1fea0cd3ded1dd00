import { checkCardForVault } from '../../src/domain/card-checks';
import { SANDBOX_TEST_CARDS } from '../../src/domain/cards';
import { ApiError } from '../../src/domain/errors';
import { isSiteOrigin, originsOf } from '../../src/domain/site-origins';

const now = new Date('2026-11-22T00:00:00Z');
const card = (cardNumber: string) => ({ cardNumber, expiryMonth: 12, expiryYear: 2030 });
/** The error id a card gets in `environment`, or 'ok'. */
function verdict(cardNumber: string, environment: 'sandbox' | 'production'): string {
  try {
    checkCardForVault(card(cardNumber), environment, now);
    return 'ok';
  } catch (err) {
    if (err instanceof ApiError) return err.definition.id;
    throw err;
  }
}

describe('cards by environment (docs/go-live.md)', () => {
  const REAL = '5555555555554444'; // a valid Mastercard number outside the sandbox list

  it('the sandbox takes its test cards only; production never takes them', () => {
    for (const pan of Object.keys(SANDBOX_TEST_CARDS)) {
      expect([pan, verdict(pan, 'sandbox')]).toEqual([pan, 'ok']);
      expect([pan, verdict(pan, 'production')]).toEqual([pan, '400014']);
    }
    expect(verdict(REAL, 'sandbox')).toBe('400013');
    expect(verdict(REAL, 'production')).toBe('ok');
  });
});

describe('site origins', () => {
  it('are https://host[:port] exactly, http only for localhost', () => {
    for (const ok of ['https://shop.example', 'https://shop.example:8443', 'http://localhost:3000', 'http://[::1]'])
      expect([ok, isSiteOrigin(ok)]).toEqual([ok, true]);
    for (const bad of ['https://shop.example/', 'https://shop.example/x', 'http://shop.example', 'shop.example', ''])
      expect([bad, isSiteOrigin(bad)]).toEqual([bad, false]);
  });

  it("a converted application's site gets the origins of its page URLs, once each", () => {
    expect(
      originsOf(['https://shop.example/checkout', 'https://shop.example', 'http://shop.example/', 'not a url']),
    ).toEqual(['https://shop.example']);
  });
});
