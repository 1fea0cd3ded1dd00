import { createHash, createHmac } from 'node:crypto';
import { signWebhook, verifyWebhook } from '../../src/domain/webhooks/signature';
import { vendorVector } from '../helpers/vendor-webhook-vector';

/**
 * Vectors computed here from the interface's verification rules with node:crypto, independently
 * of the signer: content hash = Base64(SHA-512(UTF-8 payload)); string to sign = "POST", LF,
 * then nonce;date;host;contentHash; x-fc-authorization signature = Base64(HMAC-SHA512(Base64-decoded
 * secret, UTF-8 string)); x-fc-signature = Base64(HMAC-SHA512(Base64-decoded secret, body bytes)).
 */
const secret = Buffer.from('0123456789abcdef0123456789abcdef').toString('base64');
const body = '{"IdempotencyKey":"8f2c…","Event":"order.completed","EventData":null,"Note":"é ünïcode"}';
const nonce = '3f1d2c4b-0000-4000-8000-000000000001';
const date = 'Sat, 21 Nov 2026 19:00:00 GMT';
const now = new Date('2026-11-21T19:01:00Z');
const host = 'hooks.example.com:8443';

const expectedHash = createHash('sha512').update(Buffer.from(body, 'utf8')).digest('base64');
const expectedSignature = createHmac('sha512', Buffer.from(secret, 'base64'))
  .update(Buffer.from(`POST\n${nonce};${date};${host};${expectedHash}`, 'utf8'))
  .digest('base64');
const expectedBodySignature = createHmac('sha512', Buffer.from(secret, 'base64'))
  .update(Buffer.from(body, 'utf8'))
  .digest('base64');

describe('webhook signature (HMAC-SHA512, as the interface specifies)', () => {
  const headers = signWebhook({ body, secretBase64: secret, host, nonce, date });

  it('produces the headers of the spec with independently computed values', () => {
    expect(headers).toEqual({
      'x-fc-content-sha512': expectedHash,
      'x-fc-date': date,
      'x-fc-nonce': nonce,
      'x-fc-signature': expectedBodySignature,
      'x-fc-authorization': `HMAC-SHA512 SignedHeaders=x-fc-nonce;x-fc-date;host;x-fc-content-sha512&Signature=${expectedSignature}`,
    });
  });

  it('verifies an authentic, unmodified, fresh webhook (raw body as text or bytes)', () => {
    expect(verifyWebhook({ body, headers, secretBase64: secret, host, now })).toBe(true);
    expect(verifyWebhook({ body: Buffer.from(body), headers, secretBase64: secret, host, now })).toBe(true);
  });

  it.each([
    ['a tampered body', { body: body.replace('completed', 'refunded') }],
    ['another host', { host: 'hooks.example.com' }],
    ['another secret', { secretBase64: Buffer.from('another secret of thirty-two!!!!').toString('base64') }],
    ['a replaced date', { headers: { ...headers, 'x-fc-date': 'Sat, 21 Nov 2026 19:02:00 GMT' } }],
    [
      'a forged signature',
      { headers: { ...headers, 'x-fc-authorization': headers['x-fc-authorization']?.replace(/.{4}$/, 'AAAA') } },
    ],
    ['a forged x-fc-signature', { headers: { ...headers, 'x-fc-signature': expectedSignature } }],
    ['a missing x-fc-signature', { headers: { ...headers, 'x-fc-signature': undefined } }],
    ['a date older than 5 minutes', { now: new Date('2026-11-21T19:05:01Z') }],
    ['a date more than 5 minutes ahead', { now: new Date('2026-11-21T18:54:59Z') }],
    ['a date 2 minutes old with a 1-minute tolerance', { now: new Date('2026-11-21T19:02:00Z'), toleranceSeconds: 60 }],
    ['an unparseable date', { headers: { ...headers, 'x-fc-date': 'yesterday' } }],
    ['missing headers', { headers: {} }],
  ])('rejects %s', (_name, change) => {
    expect(verifyWebhook({ body, headers, secretBase64: secret, host, now, ...change })).toBe(false);
  });

  it('can accept a delivery without x-fc-signature (requireBodySignature: false) and skip the date check', () => {
    const { 'x-fc-signature': _, ...onlyAuthorization } = headers;
    const old = new Date('2027-01-01T00:00:00Z');
    expect(
      verifyWebhook({
        body,
        headers: onlyAuthorization,
        secretBase64: secret,
        host,
        now: old,
        toleranceSeconds: 0,
        requireBodySignature: false,
      }),
    ).toBe(true);
  });
});

describe("the commercial service's published signed delivery (vendor vector)", () => {
  const v = vendorVector;

  it('our signer reproduces every header of the real delivery, x-fc-signature included', () => {
    expect(
      signWebhook({
        body: v.payload,
        secretBase64: v.secretBase64,
        host: v.host,
        nonce: v.headers['x-fc-nonce'],
        date: v.headers['x-fc-date'],
      }),
    ).toEqual(v.headers);
  });

  it('our verifier accepts the real delivery with the clock pinned to its date, or the date check off', () => {
    const common = { body: v.payload, headers: v.headers, secretBase64: v.secretBase64, host: v.host };
    expect(verifyWebhook({ ...common, now: v.sentAt })).toBe(true);
    expect(verifyWebhook({ ...common, toleranceSeconds: 0 })).toBe(true);
    // Today, it is a replay.
    expect(verifyWebhook(common)).toBe(false);
  });

  it.each([
    ['a tampered body', { body: v.payload.replace('"IsTestMode":true', '"IsTestMode":false') }],
    [
      'a tampered x-fc-signature',
      { headers: { ...v.headers, 'x-fc-signature': `A${v.headers['x-fc-signature'].slice(1)}` } },
    ],
    ['another host', { host: 'example.com' }],
    ['a stale date (6 minutes later)', { now: new Date(v.sentAt.getTime() + 6 * 60_000) }],
  ])('our verifier rejects the real delivery with %s', (_name, change) => {
    expect(
      verifyWebhook({
        body: v.payload,
        headers: v.headers,
        secretBase64: v.secretBase64,
        host: v.host,
        now: v.sentAt,
        ...change,
      }),
    ).toBe(false);
  });
});
