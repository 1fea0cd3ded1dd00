import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort } from '../../scripts/cluster/free-ports';
import type { ChargeRequest } from '../../src/processors/port';
import { createStripeAdapter } from '../../src/processors/stripe-adapter';
import { type StripeMock, startStripeMock } from './harness/stripe-mock';

/**
 * How the Stripe adapter answers what stripe-mock cannot produce: Stripe's own failures. A
 * request Stripe refuses as such is "unavailable" (repeating it cannot help); a failure of the
 * transport, Stripe's 5xx or its rate limit is thrown, so Temporal retries the activity with the
 * same idempotency key. A small HTTP server answers Stripe's documented error JSON.
 */
describe('Stripe adapter: failures and stripe-mock as it is', () => {
  let stripeMock: StripeMock;
  let failing: Server;
  let failingPort: number;
  const answers: Record<string, { status: number; body: unknown; delayMs?: number }> = {
    'key-api-error': { status: 500, body: { error: { type: 'api_error', message: 'An unknown error occurred' } } },
    'key-rate-limit': { status: 429, body: { error: { type: 'invalid_request_error', code: 'rate_limit' } } },
    'key-bad-key': { status: 401, body: { error: { type: 'invalid_request_error', message: 'Invalid API Key' } } },
    'key-forbidden': {
      status: 403,
      body: {
        error: { type: 'invalid_request_error', message: 'The provided key does not have the required permissions' },
      },
    },
    'key-idempotency': {
      status: 400,
      body: {
        error: {
          type: 'idempotency_error',
          message: 'Keys for idempotent requests can only be used with the same parameters',
        },
      },
    },
    // Stripe's answer while an earlier request under the same key is still running.
    'key-in-use': {
      status: 409,
      body: {
        error: {
          type: 'invalid_request_error',
          code: 'idempotency_key_in_use',
          message: 'There is currently another in-progress request using this Idempotent Key',
        },
      },
    },
    'key-invalid': { status: 400, body: { error: { type: 'invalid_request_error', param: 'amount' } } },
    'key-slow': { status: 200, body: { id: 'pm_slow', object: 'payment_method' }, delayMs: 3_000 },
  };
  /** 'key-processing': Stripe takes the charge but has not finished it; what a read of the intent shows. */
  let processingIntentNow = 'processing';
  const processingAnswer = (method: string, url: string) => {
    const intent = (status: string) => ({ id: 'pi_processing', object: 'payment_intent', status });
    if (url === '/v1/payment_methods') return { id: 'pm_processing', object: 'payment_method' };
    if (method === 'POST' && url === '/v1/payment_intents') return intent('processing');
    if (method === 'GET' && url.startsWith('/v1/payment_intents/pi_processing')) return intent(processingIntentNow);
    return undefined;
  };
  const processingReads: string[] = [];

  beforeAll(async () => {
    stripeMock = await startStripeMock();
    failing = createServer((req, res) => {
      const key = String(req.headers['idempotency-key'] ?? '').split(':')[0] ?? '';
      const processing = processingAnswer(String(req.method), String(req.url));
      if (req.method === 'GET') processingReads.push(String(req.url));
      const answer =
        (key === 'key-processing' || req.method === 'GET') && processing
          ? { status: 200, body: processing }
          : (answers[key] ?? { status: 500, body: { error: { type: 'api_error' } } });
      const send = () => {
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer.body));
      };
      req.resume();
      if (answer.delayMs) setTimeout(send, answer.delayMs).unref();
      else send();
    });
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    failingPort = (failing.address() as AddressInfo).port;
  });
  afterAll(async () => {
    failing?.closeAllConnections();
    await new Promise((resolve) => failing?.close(resolve));
    await stripeMock?.stop();
  });

  const request = (idempotencyKey: string): ChargeRequest => ({
    idempotencyKey,
    card: { pan: '4242424242424242', expiryMonth: 12, expiryYear: 2090 },
    amount: 1999,
    currency: 'EUR',
    flow: 'ASYNC_MIT',
    attempt: 1,
    threeDSecure: null,
  });
  const adapterAt = (port: number, timeoutMs = 8000) =>
    createStripeAdapter({ apiSecret: 'sk_test_failures', host: '127.0.0.1', port, protocol: 'http', timeoutMs });

  it("Stripe's 5xx, its rate limit, a timeout and a refused connection are thrown: retried with the same key", async () => {
    const stripe = adapterAt(failingPort, 1_000);
    await expect(stripe.sale(request('key-api-error'))).rejects.toMatchObject({ type: 'StripeAPIError' });
    await expect(stripe.sale(request('key-rate-limit'))).rejects.toMatchObject({ type: 'StripeRateLimitError' });
    await expect(stripe.sale(request('key-slow'))).rejects.toMatchObject({ type: 'StripeConnectionError' });
    await expect(adapterAt(await freePort()).sale(request('key-any'))).rejects.toMatchObject({
      type: 'StripeConnectionError',
    });
    await expect(
      stripe.capture({ idempotencyKey: 'key-api-error:capture', authorizationId: 'pi_1', amount: 1, currency: 'USD' }),
    ).rejects.toMatchObject({ type: 'StripeAPIError' });
  });

  it('a 409 idempotency_key_in_use (an earlier try still running at Stripe) is thrown: retried, never an answer or a refusal', async () => {
    const stripe = adapterAt(failingPort);
    const inUse = { code: 'idempotency_key_in_use', statusCode: 409 };
    await expect(stripe.sale(request('key-in-use'))).rejects.toMatchObject(inUse);
    await expect(
      stripe.capture({ idempotencyKey: 'key-in-use:capture', authorizationId: 'pi_1', amount: 1, currency: 'USD' }),
    ).rejects.toMatchObject(inUse);
    await expect(stripe.void({ idempotencyKey: 'key-in-use:void', authorizationId: 'pi_1' })).rejects.toMatchObject(
      inUse,
    );
  });

  it('a request Stripe refuses (bad key, idempotency conflict, invalid) is "unavailable": nothing was charged', async () => {
    const stripe = adapterAt(failingPort);
    for (const key of ['key-bad-key', 'key-idempotency', 'key-invalid']) {
      expect(await stripe.sale(request(key))).toEqual({ result: 'unavailable' });
    }
  });

  it('our key refused (401, 403) on a capture, void or refund is thrown: retried until fixed, never a refusal for good', async () => {
    const stripe = adapterAt(failingPort);
    for (const [key, type] of [
      ['key-bad-key', 'StripeAuthenticationError'],
      ['key-forbidden', 'StripePermissionError'],
    ] as const) {
      const at = { authorizationId: 'pi_1', amount: 100, currency: 'USD' };
      await expect(stripe.capture({ idempotencyKey: `${key}:capture`, ...at })).rejects.toMatchObject({ type });
      await expect(stripe.void({ idempotencyKey: `${key}:void`, authorizationId: 'pi_1' })).rejects.toMatchObject({
        type,
      });
      await expect(stripe.refund({ refundId: `${key}:refund`, ...at })).rejects.toMatchObject({ type });
    }
  });

  it('a PaymentIntent still processing is no answer: read again, and thrown (retried, same key) until it settles', async () => {
    const stripe = adapterAt(failingPort);
    processingIntentNow = 'processing';
    await expect(stripe.sale(request('key-processing'))).rejects.toThrow(/pi_processing is still processing/);
    expect(processingReads).toEqual(['/v1/payment_intents/pi_processing']);
    processingIntentNow = 'succeeded'; // the retry's create replays "processing"; the read sees it done
    expect(await stripe.sale(request('key-processing'))).toEqual({
      result: 'approved',
      authorizationId: 'pi_processing',
    });
    processingIntentNow = 'canceled'; // Stripe gave up on it: nothing was charged
    expect(await stripe.sale(request('key-processing'))).toEqual({ result: 'unavailable' });
    expect(processingReads).toHaveLength(3);
  });

  it('stripe-mock itself accepts every call; its canned PaymentIntent (requires_payment_method) reads as a retryable decline', async () => {
    const port = Number(new URL(stripeMock.url).port);
    const stripe = adapterAt(port);
    // Its fixture's last_payment_error names no reason: "do not honour", retryable.
    expect(await stripe.authorize(request('o-1:charge:1'))).toMatchObject({
      result: 'declined',
      code: '05',
      advice: 'retryable',
    });
    expect(
      (
        await stripe.capture({
          idempotencyKey: 'o-1:capture',
          authorizationId: 'pi_123',
          amount: 1999,
          currency: 'USD',
        })
      ).captureId,
    ).toBeTruthy();
    await expect(stripe.void({ idempotencyKey: 'o-1:void', authorizationId: 'pi_123' })).resolves.toBeUndefined();
    expect(
      (await stripe.refund({ refundId: 'r-1', authorizationId: 'pi_123', amount: 500 })).processorReference,
    ).toMatch(/^re_/);
  });
});
