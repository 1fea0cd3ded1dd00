import { loadConfig } from '../../src/config';
import { scrub } from '../../src/domain/sensitive-data';
import { adviceForMerchantAdviceCode, adviceForNetworkCode, chargeResultOf } from '../../src/processors/advice';
import { createSandboxAdapter } from '../../src/processors/sandbox-adapter';
import { declineFromStripe } from '../../src/processors/stripe-declines';

/**
 * The decline mapping of the processor port (docs/processors.md): Stripe's decline_code,
 * advice_code and network_decline_code to our code and advice, and advice to what the order
 * workflow retries. stripe-mock cannot decline a card, so these rules are proven here and, end
 * to end, by test/processors/async-mit.test.ts.
 */
describe('processor decline mapping', () => {
  it("Stripe's advice_code decides first: do_not_try_again and confirm_card_data are never retried", () => {
    expect(
      declineFromStripe({ code: 'card_declined', decline_code: 'generic_decline', advice_code: 'do_not_try_again' }),
    ).toEqual({
      result: 'declined',
      code: '05',
      advice: 'do_not_retry',
      processorCode: 'generic_decline',
    });
    expect(declineFromStripe({ decline_code: 'insufficient_funds', advice_code: 'confirm_card_data' }).advice).toBe(
      'hard_decline',
    );
    // The issuer's "try again later" makes even a usually hard reason retryable.
    expect(declineFromStripe({ decline_code: 'transaction_not_allowed', advice_code: 'try_again_later' }).advice).toBe(
      'retryable',
    );
  });

  it('without advice_code, the decline_code (or the error code) gives the network code and advice', () => {
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ decline_code: 'insufficient_funds' }, '51', 'retryable'],
      [{ decline_code: 'do_not_honor' }, '05', 'retryable'],
      [{ decline_code: 'issuer_not_available' }, '91', 'retryable'],
      [{ decline_code: 'stolen_card' }, '43', 'hard_decline'],
      [{ decline_code: 'lost_card' }, '41', 'hard_decline'],
      [{ decline_code: 'fraudulent' }, '59', 'hard_decline'],
      [{ decline_code: 'do_not_try_again' }, '05', 'do_not_retry'],
      [{ decline_code: 'revocation_of_authorization' }, 'R1', 'do_not_retry'],
      [{ decline_code: 'stop_payment_order' }, 'R0', 'do_not_retry'],
      [{ code: 'expired_card' }, '54', 'hard_decline'],
      [{ code: 'incorrect_number' }, '14', 'hard_decline'],
      [{ code: 'processing_error' }, '96', 'retryable'],
      [{ decline_code: 'a_code_stripe_adds_later' }, '05', 'retryable'],
      [{}, '05', 'retryable'],
    ];
    for (const [fields, code, advice] of cases) {
      expect({ fields, ...declineFromStripe(fields) }).toMatchObject({ fields, code, advice });
    }
  });

  it("the network's own code is reported when Stripe passes it on, and its do-not-retry wins over a soft reason", () => {
    expect(declineFromStripe({ decline_code: 'generic_decline', network_decline_code: '51' })).toMatchObject({
      code: '51',
      advice: 'retryable',
    });
    expect(declineFromStripe({ decline_code: 'generic_decline', network_decline_code: 'R3' })).toMatchObject({
      code: 'R3',
      advice: 'do_not_retry',
    });
    expect(declineFromStripe({ decline_code: 'stolen_card', network_decline_code: '05' }).advice).toBe('hard_decline');
  });

  it('a hard network code (lost, stolen, expired, closed) wins over a soft decline_code: never retried', () => {
    const cases = [
      ['generic_decline', '41'],
      ['do_not_honor', '14'],
      ['insufficient_funds', '54'],
      ['try_again_later', '43'],
      ['generic_decline', '59'],
    ] as const;
    for (const [reason, network] of cases) {
      const decline = declineFromStripe({ decline_code: reason, network_decline_code: network });
      expect({ reason, ...decline }).toMatchObject({ reason, code: network, advice: 'hard_decline' });
      expect(chargeResultOf(decline)).toEqual({ result: 'hard_decline', code: network });
    }
    // Stripe's advice_code stays the issuer's last word.
    const advised = { decline_code: 'generic_decline', network_decline_code: '54', advice_code: 'try_again_later' };
    expect(declineFromStripe(advised).advice).toBe('retryable');
  });

  it("Mastercard's Merchant Advice Code: 03 and 21 never retried, 01 (new card data) a hard decline, the rest wait", () => {
    const withMac = (mac: string, fields: Record<string, string> = {}) =>
      declineFromStripe({
        decline_code: 'generic_decline',
        network_decline_code: '05',
        network_advice_code: mac,
        ...fields,
      });
    expect(withMac('03', { advice_code: 'try_again_later' })).toMatchObject({
      advice: 'do_not_retry',
      merchantAdviceCode: '03',
    });
    expect(withMac('21').advice).toBe('do_not_retry');
    expect(withMac('01')).toMatchObject({ advice: 'hard_decline', merchantAdviceCode: '01' });
    expect(withMac('01', { network_decline_code: 'R1' }).advice).toBe('do_not_retry');
    // 02 and 24-30 are retried, after the wait the network rules hold (src/domain/network-rules.ts).
    expect(['02', '24', '30'].map((mac) => withMac(mac).advice)).toEqual(Array(3).fill('retryable'));
    expect(['01', '03', '21', '02'].map(adviceForMerchantAdviceCode)).toEqual([
      'hard_decline',
      'do_not_retry',
      'do_not_retry',
      'retryable',
    ]);
  });

  it('network codes alone: hard codes and Visa stop-payment codes are never retried', () => {
    expect(['51', '05', '91', '61'].map(adviceForNetworkCode)).toEqual(Array(4).fill('retryable'));
    expect(['04', '14', '41', '43', '54', '59'].map(adviceForNetworkCode)).toEqual(Array(6).fill('hard_decline'));
    expect(['R0', 'R1', 'r3'].map(adviceForNetworkCode)).toEqual(Array(3).fill('do_not_retry'));
  });

  it('the workflow retries only retryable declines: every other advice reaches it as a hard decline', () => {
    const decline = (advice: 'retryable' | 'hard_decline' | 'do_not_retry') =>
      chargeResultOf({ result: 'declined', code: '05', advice });
    expect(decline('retryable')).toEqual({ result: 'soft_decline', code: '05' });
    expect(decline('hard_decline')).toEqual({ result: 'hard_decline', code: '05' });
    expect(decline('do_not_retry')).toEqual({ result: 'hard_decline', code: '05' });
    expect(chargeResultOf({ result: 'approved', authorizationId: 'pi_1' })).toEqual({
      result: 'approved',
      authorizationId: 'pi_1',
    });
    expect(chargeResultOf({ result: 'unavailable' })).toEqual({ result: 'unavailable' });
  });

  it('the sandbox adapter answers as the simulator did, and "unavailable" outside the sandbox', async () => {
    const request = (pan: string, attempt = 1) => ({
      idempotencyKey: `o:charge:${attempt}`,
      card: { pan, expiryMonth: 12, expiryYear: 2090 },
      amount: 100,
      currency: 'USD',
      flow: 'ASYNC_MIT' as const,
      attempt,
      threeDSecure: null,
    });
    const sandbox = createSandboxAdapter('sandbox');
    expect(chargeResultOf(await sandbox.sale(request('4000000000000002')))).toEqual({
      result: 'hard_decline',
      code: '43',
    });
    expect(chargeResultOf(await sandbox.sale(request('4000000000009995')))).toEqual({
      result: 'soft_decline',
      code: '51',
    });
    expect((await sandbox.authorize(request('4000000000000341', 3))).result).toBe('approved');
    expect(await createSandboxAdapter('production').sale(request('4111111111111111'))).toEqual({
      result: 'unavailable',
    });
  });

  it('reads Stripe settings from the configuration, and never echoes a bad key', () => {
    expect(loadConfig({}).processors).toEqual({ stripe: null });
    expect(
      loadConfig({ STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_API_BASE: 'http://127.0.0.1:12111' }).processors,
    ).toEqual({
      stripe: { apiSecret: 'sk_test_abc', host: '127.0.0.1', port: 12111, protocol: 'http', timeoutMs: 8000 },
    });
    expect(loadConfig({ STRIPE_SECRET_KEY: 'rk_live_abc' }).processors.stripe).toEqual({
      apiSecret: 'rk_live_abc',
      timeoutMs: 8000,
    });
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'pk_live_leaked' })).toThrow(/STRIPE_SECRET_KEY/);
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'pk_live_leaked' })).not.toThrow(/pk_live_leaked/);
    expect(() => loadConfig({ STRIPE_API_BASE: 'ftp://stripe.example' })).toThrow(/STRIPE_API_BASE/);
    // Should the configuration ever be logged, the key is scrubbed like every other secret.
    const logged = JSON.stringify(scrub(loadConfig({ STRIPE_SECRET_KEY: 'sk_live_do_not_log' })));
    expect(logged).not.toContain('sk_live_do_not_log');
  });
});
