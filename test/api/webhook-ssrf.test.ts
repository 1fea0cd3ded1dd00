import { randomUUID } from 'node:crypto';
import { startReceiver } from '../../scripts/receivers/https-receiver';
import { postWebhook } from '../../src/activities/webhook-post';
import { createEndpoint } from '../../src/db/repositories/webhook-endpoints';
import type { PrivateNetworks } from '../../src/domain/webhooks/destination';
import { eventually } from '../helpers/eventually';
import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { startTestStack, type TestStack } from '../helpers/stack';

describe('webhooks to private networks, as production refuses them', () => {
  let stack: TestStack;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    stack = await startTestStack({ env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false' } });
    receiver = await startReceiver(200);
  });
  afterAll(async () => {
    await receiver?.stop();
    await stack?.stop();
  });

  it('refuses to save an endpoint on a private, loopback or link-local address (400042)', async () => {
    const merchant = await seedMerchant(stack.db);
    const token = await accessToken(stack.baseUrl, await seedKey(stack.db, merchant));
    const create = (url: string) =>
      fetch(`${stack.baseUrl}/v1/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url, events: ['*'] }),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as { error?: { id: string; field: string } } }));
    for (const url of [
      receiver.url,
      'https://localhost/hooks',
      'https://169.254.169.254/latest',
      'https://[::1]/hooks',
      'https://10.0.0.7/hooks',
    ]) {
      const res = await create(url);
      expect([url, res.status, res.body.error?.id, res.body.error?.field]).toEqual([url, 400, '400042', 'url']);
    }
    expect(await stack.db('webhook_endpoints').where({ merchant_id: merchant.mid })).toHaveLength(0);
  });

  it('checks again before every attempt: an endpoint that points at a private address is never called', async () => {
    const merchant = await seedMerchant(stack.db);
    const token = await accessToken(stack.baseUrl, await seedKey(stack.db, merchant));
    // As if the host had resolved to a public address when saved and to a private one now.
    const { row } = await createEndpoint(
      stack.db,
      { partnerId: merchant.pid, merchantId: merchant.mid, url: receiver.url, events: ['*'], description: null },
      stack.config.vaultKeys,
    );
    const evaluated = await fetch(`${stack.baseUrl}/v1/evaluate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        idempotencyKey: randomUUID(),
        externalOrderId: `ssrf-${randomUUID()}`,
        transaction: { amount: 100, currency: 'USD' },
        paymentMethod: { cardNumber: '4111111111111111', expiryMonth: 1, expiryYear: 2090 },
      }),
    });
    expect(evaluated.status).toBe(200);
    const attempt = await eventually(
      (): Promise<{ error: string; succeeded: boolean } | undefined> =>
        stack
          .db('webhook_attempts as a')
          .join('webhook_deliveries as d', 'd.id', 'a.delivery_id')
          .where('d.endpoint_id', row.id)
          .first('a.error', 'a.succeeded'),
      (a) => a !== undefined,
      { describe: `a recorded delivery attempt to endpoint ${row.id}` },
    );
    expect(attempt).toMatchObject({ succeeded: false, error: expect.stringContaining('destination refused') });
    expect(receiver.received).toHaveLength(0);
  });

  it('refuses a private address at connection time too (DNS rebinding), whatever an earlier check saw', async () => {
    // localhost resolves to 127.0.0.1 when the connection is made: refused there, not by a pre-check.
    const viaName = new URL(receiver.url.replace('127.0.0.1', 'localhost'));
    const send = (privateNetworks: PrivateNetworks) =>
      postWebhook(viaName, { headers: {}, body: '{}', timeoutMs: 5000, privateNetworks });
    await expect(send('none')).rejects.toThrow(/destination refused/);
    expect(receiver.received).toHaveLength(0);
    expect(await send('loopback')).toBe(200); // the sandbox's default: this machine's receivers
    expect(await send('all')).toBe(200);
    expect(receiver.received).toHaveLength(2);
  });
});
