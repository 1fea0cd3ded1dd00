import { WebhookVerificationError, webhooks } from '../../clients/typescript/src';
import { vendorVector } from '../helpers/vendor-webhook-vector';

/** webhooks.verify / parse on the commercial service's published signed delivery (no stack needed). */
describe('client webhooks.verify and parse: the vendor-published vector', () => {
  const input = {
    body: vendorVector.payload,
    headers: vendorVector.headers,
    host: vendorVector.host,
    secrets: vendorVector.secretBase64,
    now: vendorVector.sentAt,
  };

  it('accepts the published delivery and returns its typed envelope', () => {
    expect(webhooks.verify(input)).toBe(true);
    const envelope = webhooks.parse(input);
    expect(envelope.Event).toBe('order.completed');
    expect(envelope).toMatchObject({ OrderId: 'ac9674ed-cbfe-49aa-bc8b-eb1d2b74c429', ConfirmationId: '22ACD1D9' });
  });

  it('accepts it among rotated secrets, with upper-case or fetch headers, and as a Buffer', () => {
    const other = Buffer.alloc(64, 7).toString('base64');
    expect(webhooks.verify({ ...input, secrets: [other, vendorVector.secretBase64] })).toBe(true);
    expect(webhooks.verify({ ...input, secrets: [other] })).toBe(false);
    const upper = Object.fromEntries(Object.entries(vendorVector.headers).map(([k, v]) => [k.toUpperCase(), v]));
    expect(webhooks.verify({ ...input, headers: upper })).toBe(true);
    expect(webhooks.verify({ ...input, headers: new Headers(vendorVector.headers) })).toBe(true);
    expect(webhooks.verify({ ...input, body: Buffer.from(vendorVector.payload) })).toBe(true);
  });

  it.each([
    [
      'a tampered body',
      { body: vendorVector.payload.replace('"IsTestMode":true', '"IsTestMode":false') },
      'content-hash',
    ],
    ['another host', { host: 'attacker.example' }, 'signature'],
    ['a stale date (5 min 1 s later)', { now: new Date(vendorVector.sentAt.getTime() + 301_000) }, 'stale'],
    ['a date from the future', { now: new Date(vendorVector.sentAt.getTime() - 301_000) }, 'stale'],
    ['a missing x-fc-signature', { headers: { ...vendorVector.headers, 'x-fc-signature': '' } }, 'missing-headers'],
    [
      'a forged x-fc-signature',
      { headers: { ...vendorVector.headers, 'x-fc-signature': vendorVector.headers['x-fc-content-sha512'] } },
      'signature',
    ],
  ] as const)('rejects %s', (_what, change, reason) => {
    const bad = { ...input, ...change };
    expect(webhooks.verify(bad)).toBe(false);
    expect(() => webhooks.parse(bad)).toThrow(new WebhookVerificationError(reason));
  });

  it('takes a wider tolerance when told, and refuses parsed JSON as the body', () => {
    const later = new Date(vendorVector.sentAt.getTime() + 10 * 60_000);
    expect(webhooks.verify({ ...input, now: later })).toBe(false);
    expect(webhooks.verify({ ...input, now: later, toleranceMs: 11 * 60_000 })).toBe(true);
    const parsed = JSON.parse(vendorVector.payload) as unknown as string;
    expect(() => webhooks.verify({ ...input, body: parsed })).toThrow(TypeError);
  });
});
