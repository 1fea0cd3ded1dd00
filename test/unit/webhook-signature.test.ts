import { createHash, createHmac } from 'node:crypto';
import { signWebhook, verifyWebhook } from '../../src/domain/webhooks/signature';

/**
 * Vectors computed here from the interface's verification rules with node:crypto, independently
 * of the signer: content hash = Base64(SHA-512(UTF-8 payload)); string to sign = "POST", LF,
 * then nonce;date;host;contentHash; signature = Base64(HMAC-SHA512(Base64-decoded secret, UTF-8 string)).
 */
const secret = Buffer.from('0123456789abcdef0123456789abcdef').toString('base64');
const body = '{"IdempotencyKey":"8f2c…","Event":"order.completed","EventData":null,"Note":"é ünïcode"}';
const nonce = '3f1d2c4b-0000-4000-8000-000000000001';
const date = 'Sat, 21 Nov 2026 19:00:00 GMT';
const host = 'hooks.example.com:8443';

const expectedHash = createHash('sha512').update(Buffer.from(body, 'utf8')).digest('base64');
const expectedSignature = createHmac('sha512', Buffer.from(secret, 'base64'))
  .update(Buffer.from(`POST\n${nonce};${date};${host};${expectedHash}`, 'utf8'))
  .digest('base64');

describe('webhook signature (HMAC-SHA512, as the interface specifies)', () => {
  const headers = signWebhook({ body, secretBase64: secret, host, nonce, date });

  it('produces the headers of the spec with independently computed values', () => {
    expect(headers).toEqual({
      'x-fc-content-sha512': expectedHash,
      'x-fc-date': date,
      'x-fc-nonce': nonce,
      'x-fc-signature': expectedSignature,
      'x-fc-authorization': `HMAC-SHA512 SignedHeaders=x-fc-nonce;x-fc-date;host;x-fc-content-sha512&Signature=${expectedSignature}`,
    });
  });

  it('verifies an authentic, unmodified webhook', () => {
    expect(verifyWebhook({ body, headers, secretBase64: secret, host })).toBe(true);
  });

  it.each([
    ['a tampered body', { body: body.replace('completed', 'refunded') }],
    ['another host', { host: 'hooks.example.com' }],
    ['another secret', { secretBase64: Buffer.from('another secret of thirty-two!!!!').toString('base64') }],
    ['a replaced date', { headers: { ...headers, 'x-fc-date': 'Sun, 22 Nov 2026 19:00:00 GMT' } }],
    [
      'a forged signature',
      { headers: { ...headers, 'x-fc-authorization': headers['x-fc-authorization']?.replace(/.{4}$/, 'AAAA') } },
    ],
    ['missing headers', { headers: {} }],
  ])('rejects %s', (_name, change) => {
    expect(verifyWebhook({ body, headers, secretBase64: secret, host, ...change })).toBe(false);
  });
});
