import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A card-network simulator in front of stripe-mock: the issuer's side of Stripe, which
 * stripe-mock (stateless, canned answers) cannot play. Every request goes to stripe-mock first,
 * so Stripe's OpenAPI validation still judges it, and a refusal there is passed back as is. On
 * answers stripe-mock accepted, the simulator decides what the issuer would: the PaymentIntent's
 * status after confirm/capture/cancel, or Stripe's documented card_error (HTTP 402) for a
 * declining card (https://docs.stripe.com/api/errors). Like Stripe, it answers a repeated
 * idempotency key with its first answer.
 */

export type CardBehaviour =
  | { kind: 'approve' }
  | { kind: 'challenge' }
  /** Declines with these card_error fields; approves from the `approveFromAttempt`-th charge on. */
  | {
      kind: 'decline';
      decline_code: string;
      advice_code?: string;
      network_decline_code?: string;
      approveFromAttempt?: number;
    };

export interface RecordedRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  /** Form parameters as sent, with any card number replaced by "<card number>". */
  params: Record<string, string>;
  status: number;
  /** Answered from the first answer to its idempotency key: nothing new happened at "Stripe". */
  replayed: boolean;
}

/** A request the simulator decided (and stores for replays) but does not answer until released. */
export interface Hold {
  /** The held request once it arrived and was decided, as recorded in `requests`. */
  readonly arrived: RecordedRequest | undefined;
  /** Sends the held answer, to whoever still listens. */
  release(): void;
}

export interface CardNetwork {
  url: string;
  requests: RecordedRequest[];
  /** PaymentIntent creations (charges) made with this card, one per idempotency key. */
  charges(pan: string): number;
  /** Holds the answer to the next request that `matches` (once): "Stripe" acted, the answer waits. */
  hold(matches: (request: RecordedRequest) => boolean): Hold;
  /**
   * Refunds of `amount` (minor units) are refused as Stripe refuses a disputed charge's (400,
   * `charge_disputed`) until `allow` is called.
   */
  refuseRefundsOf(amount: number): { allow(): void };
  /**
   * Every authorization is released (as Stripe releases one uncaptured for 7 days): captures and
   * cancels are refused as Stripe refuses them on a cancelled PaymentIntent (400,
   * `payment_intent_unexpected_state`), until `restore` is called.
   */
  lapseAuthorizations(): { restore(): void };
  /**
   * Every authorization was captured at Stripe outside the service (say, from its dashboard):
   * cancels are refused as Stripe refuses them on a succeeded PaymentIntent (400,
   * `payment_intent_unexpected_state`), until `restore` is called.
   */
  captureAuthorizationsOutside(): { restore(): void };
  stop(): Promise<void>;
}

const CARD_NUMBER = 'card[number]';

export async function startCardNetwork(
  stripeMockUrl: string,
  cards: Record<string, CardBehaviour>,
): Promise<CardNetwork> {
  const cardOfPaymentMethod = new Map<string, string>();
  const chargesByCard = new Map<string, number>();
  const firstAnswers = new Map<string, { status: number; body: unknown }>();
  const requests: RecordedRequest[] = [];
  const refusedRefundAmounts = new Set<string>();
  let authorizationsLapsed = false;
  let capturedOutside = false;
  const holds: Array<{
    matches: (r: RecordedRequest) => boolean;
    arrive(r: RecordedRequest): void;
    released: Promise<void>;
  }> = [];

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const params = Object.fromEntries(new URLSearchParams(raw));
    const key = header(req, 'idempotency-key');
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const replayKey = key ? `${req.method} ${path} ${key}` : undefined;
    const first = replayKey ? firstAnswers.get(replayKey) : undefined;
    const answer = first ?? (await decide(req, path, raw, params));
    if (replayKey) firstAnswers.set(replayKey, answer);
    const { [CARD_NUMBER]: pan, ...rest } = params;
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET',
      path,
      idempotencyKey: key,
      params: pan ? { ...rest, [CARD_NUMBER]: '<card number>' } : rest,
      status: answer.status,
      replayed: first !== undefined,
    };
    requests.push(recorded);
    const held = holds.findIndex((h) => h.matches(recorded));
    if (held >= 0) {
      const [hold] = holds.splice(held, 1);
      hold?.arrive(recorded);
      await hold?.released;
    }
    res.writeHead(answer.status, {
      'content-type': 'application/json',
      'request-id': `req_${randomBytes(6).toString('hex')}`,
    });
    res.end(JSON.stringify(answer.body));
  }

  async function decide(req: IncomingMessage, path: string, raw: string, params: Record<string, string>) {
    const forwarded = await fetch(`${stripeMockUrl}${req.url}`, {
      method: req.method ?? 'GET',
      headers: forwardedHeaders(req),
      ...(req.method === 'GET' ? {} : { body: raw }),
    });
    // biome-ignore lint/suspicious/noExplicitAny: Stripe objects as stripe-mock answered them
    const body: any = await forwarded.json();
    if (forwarded.status !== 200) return { status: forwarded.status, body };
    if (path === '/v1/payment_methods' && params[CARD_NUMBER]) {
      cardOfPaymentMethod.set(body.id, params[CARD_NUMBER]);
      return { status: 200, body: { ...body, card: { ...body.card, last4: params[CARD_NUMBER].slice(-4) } } };
    }
    if (path === '/v1/payment_intents') return charge(body, params);
    if (authorizationsLapsed && /^\/v1\/payment_intents\/[^/]+\/(capture|cancel)$/.test(path))
      return unexpectedState(
        { ...body, status: 'canceled' },
        path.endsWith('/capture')
          ? 'This PaymentIntent could not be captured because it has a status of canceled.'
          : 'You cannot cancel this PaymentIntent because it has a status of canceled.',
      );
    if (capturedOutside && /^\/v1\/payment_intents\/[^/]+\/cancel$/.test(path))
      return unexpectedState(
        { ...body, status: 'succeeded' },
        'You cannot cancel this PaymentIntent because it has a status of succeeded. Only a PaymentIntent with one of the following statuses may be canceled: requires_payment_method, requires_capture, requires_confirmation, requires_action, processing.',
      );
    if (/^\/v1\/payment_intents\/[^/]+\/capture$/.test(path)) {
      const captured = Number(params.amount_to_capture ?? body.amount);
      return {
        status: 200,
        body: { ...body, status: 'succeeded', amount_received: captured, latest_charge: chargeId() },
      };
    }
    if (path === '/v1/refunds' && params.amount !== undefined && refusedRefundAmounts.has(params.amount))
      return {
        status: 400,
        body: {
          error: {
            type: 'invalid_request_error',
            code: 'charge_disputed',
            message: 'This charge has been disputed and cannot be refunded.',
          },
        },
      };
    if (/^\/v1\/payment_intents\/[^/]+\/cancel$/.test(path))
      return { status: 200, body: { ...body, status: 'canceled' } };
    return { status: 200, body };
  }

  /** Stripe's refusal of a capture or cancel on a PaymentIntent in another state (400). */
  // biome-ignore lint/suspicious/noExplicitAny: a PaymentIntent as stripe-mock answered it
  function unexpectedState(intent: any, message: string) {
    const error = { type: 'invalid_request_error', code: 'payment_intent_unexpected_state', message };
    return { status: 400, body: { error: { ...error, payment_intent: intent } } };
  }

  // biome-ignore lint/suspicious/noExplicitAny: a PaymentIntent as stripe-mock answered it
  function charge(intent: any, params: Record<string, string>) {
    const pan = params.payment_method ? cardOfPaymentMethod.get(params.payment_method) : undefined;
    const behaviour: CardBehaviour = (pan && cards[pan]) || { kind: 'decline', decline_code: 'generic_decline' };
    const attempt = pan ? (chargesByCard.get(pan) ?? 0) + 1 : 1;
    if (pan) chargesByCard.set(pan, attempt);
    const manual = params.capture_method === 'manual';
    const approved = {
      ...intent,
      amount: Number(params.amount),
      payment_method: params.payment_method,
      status: manual ? 'requires_capture' : 'succeeded',
      amount_capturable: manual ? Number(params.amount) : 0,
      amount_received: manual ? 0 : Number(params.amount),
      latest_charge: chargeId(),
    };
    if (behaviour.kind === 'approve') return { status: 200, body: approved };
    if (behaviour.kind === 'challenge') return { status: 200, body: { ...approved, status: 'requires_action' } };
    if (behaviour.approveFromAttempt !== undefined && attempt >= behaviour.approveFromAttempt)
      return { status: 200, body: approved };
    const { kind: _k, approveFromAttempt: _a, ...fields } = behaviour;
    const error = {
      type: 'card_error',
      code: 'card_declined',
      message: 'Your card was declined.',
      doc_url: 'https://docs.stripe.com/error-codes/card-declined',
      ...fields,
    };
    return {
      status: 402,
      body: {
        error: {
          ...error,
          charge: chargeId(),
          payment_intent: { ...intent, status: 'requires_payment_method', last_payment_error: error },
        },
      },
    };
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: String(err) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    charges: (pan) => chargesByCard.get(pan) ?? 0,
    hold(matches) {
      let arrived: RecordedRequest | undefined;
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      holds.push({ matches, arrive: (r) => (arrived = r), released });
      return {
        get arrived() {
          return arrived;
        },
        release,
      };
    },
    refuseRefundsOf(amount) {
      refusedRefundAmounts.add(String(amount));
      return { allow: () => refusedRefundAmounts.delete(String(amount)) };
    },
    lapseAuthorizations() {
      authorizationsLapsed = true;
      return { restore: () => (authorizationsLapsed = false) };
    },
    captureAuthorizationsOutside() {
      capturedOutside = true;
      return { restore: () => (capturedOutside = false) };
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function chargeId(): string {
  return `ch_${randomBytes(12).toString('hex')}`;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function forwardedHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ['authorization', 'content-type', 'stripe-version', 'idempotency-key']) {
    const value = header(req, name);
    if (value) out[name] = value;
  }
  return out;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
