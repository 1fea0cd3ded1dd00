import { randomUUID } from 'node:crypto';
import { evaluateRequest } from '../../src/domain/orders/evaluate-request';

/** expiryDateUtc as ISO 8601 or as an HTTP date (RFC 9110's IMF-fixdate), only when it names that moment. */
describe('evaluate: expiryDateUtc', () => {
  const parse = (expiryDateUtc: string) =>
    evaluateRequest.safeParse({
      idempotencyKey: randomUUID(),
      externalOrderId: 'shop-1',
      transaction: { amount: 2500, currency: 'USD', responseCode: '51' },
      paymentMethod: { cardNumber: '4111111111111111', expiryMonth: 12, expiryYear: 2099 },
      expiryDateUtc,
    });

  it.each([
    ['Tue, 01 Jan 2030 10:00:00 GMT', '2030-01-01T10:00:00.000Z'],
    ['Thu, 28 Feb 2030 23:59:59 GMT', '2030-02-28T23:59:59.000Z'],
    ['2030-01-01T10:00:00Z', '2030-01-01T10:00:00Z'],
  ])('reads %s', (sent, read) => {
    const result = parse(sent);
    expect(result.success && result.data.expiryDateUtc).toBe(read);
  });

  it.each([
    'Mon, 01 Foo 2030 10:00:00 GMT', // no such month
    'Mon, 45 Jan 2030 10:00:00 GMT', // no such day
    'Mon, 01 Jan 2030 99:00:00 GMT', // no such hour
    'Mon, 31 Feb 2030 10:00:00 GMT', // Date would read 3 March
    'Mon, 31 Nov 2030 10:00:00 GMT', // Date would read 1 December
  ])('refuses %s naming the field, without throwing', (sent) => {
    const result = parse(sent);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join('.'))).toEqual(['expiryDateUtc']);
  });
});
