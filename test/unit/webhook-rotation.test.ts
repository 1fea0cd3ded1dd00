import { randomBytes, randomUUID } from 'node:crypto';
import { signWebhook, verifyWebhook } from '../../src/domain/webhooks/signature';

describe('verifyWebhook with a list of secrets (a rotation in progress)', () => {
  const secret = () => randomBytes(32).toString('base64');
  const [oldSecret, newSecret, other] = [secret(), secret(), secret()];
  const body = JSON.stringify({ Event: 'order.completed', IdempotencyKey: randomUUID() });
  const host = 'shop.example:8443';
  const headers = signWebhook({
    body,
    secretBase64: oldSecret,
    host,
    nonce: randomUUID(),
    date: new Date().toUTCString(),
  });

  it('accepts a delivery signed by any one of the secrets, in any order', () => {
    expect(verifyWebhook({ body, headers, host, secrets: [newSecret, oldSecret] })).toBe(true);
    expect(verifyWebhook({ body, headers, host, secrets: [oldSecret, newSecret] })).toBe(true);
    expect(verifyWebhook({ body, headers, host, secretBase64: oldSecret })).toBe(true);
  });

  it('rejects it when no listed secret signed it, on an empty list, and when tampered', () => {
    expect(verifyWebhook({ body, headers, host, secrets: [newSecret, other] })).toBe(false);
    expect(verifyWebhook({ body, headers, host, secrets: [] })).toBe(false);
    expect(verifyWebhook({ body: body.replace('completed', 'refunded'), headers, host, secrets: [oldSecret] })).toBe(
      false,
    );
  });

  it('needs both signatures from the same secret', () => {
    const mixed = {
      ...headers,
      'x-fc-signature': signWebhook({
        body,
        secretBase64: newSecret,
        host,
        nonce: 'n',
        date: headers['x-fc-date'] as string,
      })['x-fc-signature'],
    };
    expect(verifyWebhook({ body, headers: mixed, host, secrets: [oldSecret, newSecret] })).toBe(false);
  });
});
