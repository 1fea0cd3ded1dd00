import { containsCardNumber, maskCardNumbers, passesLuhn, REDACTED, scrub } from '../../src/domain/sensitive-data';
import { capturedLogger } from '../helpers/log-capture';

describe('sensitive data never reaches the logs', () => {
  it('knows the Luhn check', () => {
    expect(passesLuhn('4111111111111111')).toBe(true);
    expect(passesLuhn('4111111111111112')).toBe(false);
    expect(passesLuhn('')).toBe(false);
  });

  it('masks card numbers inside text, grouped or not, and leaves other numbers alone', () => {
    expect(maskCardNumbers('card 4111111111111111 declined')).toBe('card 411111******1111 declined');
    expect(maskCardNumbers('card 4111 1111 1111 1111')).toBe('card 411111******1111');
    expect(maskCardNumbers('order 1234567890123456')).toBe('order 1234567890123456'); // fails Luhn
    expect(maskCardNumbers('amount 1999')).toBe('amount 1999');
  });

  it('keeps UUIDs whole: ids in logs and free text are never taken for card numbers', () => {
    // A request id whose groups "552-4527-9930-46" are 13 digits passing Luhn: it was masked once.
    const id = 'd884373a-e552-4527-9930-46edefb88a9e';
    expect(passesLuhn('5524527993046')).toBe(true);
    expect(maskCardNumbers(`request ${id}`)).toBe(`request ${id}`);
    expect(containsCardNumber(`order ${id}`)).toBe(false);
    // A card number beside an id is still masked.
    expect(maskCardNumbers(`${id} 4111 1111 1111 1111`)).toBe(`${id} 411111******1111`);
    expect(containsCardNumber(`${id} 4111-1111-1111-1111`)).toBe(true);
    for (let i = 0; i < 5_000; i++) {
      const uuid = crypto.randomUUID();
      expect(maskCardNumbers(uuid)).toBe(uuid);
    }
  });

  it('redacts secrets and card fields at any depth', () => {
    const out = scrub({
      headers: { authorization: 'Bearer abc', 'x-request-id': 'r1' },
      body: {
        paymentMethod: { cardNumber: '4111111111111111', cvv: '123', verificationValue: '123' },
        client_secret: 's',
        clientSecret: 's2',
      },
      list: [{ signingSecret: 'k' }],
    });
    expect(out).toEqual({
      headers: { authorization: REDACTED, 'x-request-id': 'r1' },
      body: {
        paymentMethod: { cardNumber: REDACTED, cvv: REDACTED, verificationValue: REDACTED },
        client_secret: REDACTED,
        clientSecret: REDACTED,
      },
      list: [{ signingSecret: REDACTED }],
    });
  });

  it('applies all of this to every pino log line, messages included', () => {
    const { logger, text, lines } = capturedLogger();
    logger.info(
      { req: { headers: { authorization: 'Bearer tok_live_123' } }, pan: '5555555555554444' },
      'retrying card 4000000000000002',
    );
    logger.error({ err: new Error('processor said 4111111111111111 is bad') }, 'failed');
    const all = text();
    for (const secret of ['tok_live_123', '5555555555554444', '4000000000000002', '4111111111111111']) {
      expect(all).not.toContain(secret);
    }
    expect(JSON.parse(lines[0] as string).msg).toBe('retrying card 400000******0002');
  });
});
