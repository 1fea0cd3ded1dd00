import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { PaymentRescueApi } from './generated/openapi';

/** Every event's envelope, by event name (the document's `webhooks` section). */
export type WebhookEnvelopes = PaymentRescueApi['webhookEvents'];
export type WebhookEventName = keyof WebhookEnvelopes;
/** The envelope of one delivery: narrow it on `Event`. */
export type WebhookEnvelope = WebhookEnvelopes[WebhookEventName];

/** Headers as Node (`req.headers`) or fetch (`request.headers`) give them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyInput {
  /** The raw body, exactly as received (a Buffer or its UTF-8 text); never re-serialised JSON. */
  body: string | Uint8Array;
  headers: WebhookHeaders;
  /** The endpoint's signing secret, or during a rotation the new and the old one. */
  secrets: string | readonly string[];
  /** Host of the endpoint URL you registered (with its port when not the default): it is signed. */
  host: string;
  /** How far x-fc-date may be from `now`, either way. Default 5 minutes; 0 turns the check off. */
  toleranceMs?: number;
  now?: Date;
}

export type VerifyFailure = 'missing-headers' | 'stale' | 'content-hash' | 'signature';

/** The delivery is not authentic, was modified, or is too old (a replay). Answer non-2xx. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  constructor(readonly reason: VerifyFailure) {
    super(`webhook rejected: ${reason}`);
  }
}

export const DEFAULT_TOLERANCE_MS = 5 * 60_000;

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  for (const [k, v] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (k.toLowerCase() === name) return Array.isArray(v) ? v[0] : v;
  }
  return undefined;
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const hmac = (secret: string, data: string | Uint8Array) =>
  createHmac('sha512', Buffer.from(secret, 'base64')).update(data).digest('base64');

/** Why `input` fails (docs/webhooks.md "Verifying"), or undefined when it is authentic and fresh. */
function failure(input: VerifyInput): VerifyFailure | undefined {
  if (typeof input.body !== 'string' && !(input.body instanceof Uint8Array)) {
    throw new TypeError('webhooks: body must be the raw body (string or Buffer), not parsed JSON');
  }
  const body = typeof input.body === 'string' ? Buffer.from(input.body, 'utf8') : input.body;
  const nonce = header(input.headers, 'x-fc-nonce');
  const date = header(input.headers, 'x-fc-date');
  const claimed = /&Signature=(.+)$/.exec(header(input.headers, 'x-fc-authorization') ?? '')?.[1];
  const claimedBody = header(input.headers, 'x-fc-signature');
  const claimedHash = header(input.headers, 'x-fc-content-sha512');
  if (!nonce || !date || !claimed || !claimedBody || !claimedHash) return 'missing-headers';
  const tolerance = input.toleranceMs ?? DEFAULT_TOLERANCE_MS;
  const sent = Date.parse(date);
  if (Number.isNaN(sent)) return 'stale';
  if (tolerance > 0 && Math.abs((input.now ?? new Date()).getTime() - sent) > tolerance) return 'stale';
  const hash = createHash('sha512').update(body).digest('base64');
  if (!sameText(claimedHash, hash)) return 'content-hash';
  const toSign = `POST\n${nonce};${date};${input.host};${hash}`;
  let matched = false;
  // Every secret is tried, so the time taken does not tell which one matched.
  for (const secret of typeof input.secrets === 'string' ? [input.secrets] : input.secrets) {
    const ok = sameText(claimed, hmac(secret, toSign)) && sameText(claimedBody, hmac(secret, body));
    matched = ok || matched;
  }
  return matched ? undefined : 'signature';
}

/** True when the delivery is authentic (signed by one of `secrets`), unmodified and fresh. */
export function verify(input: VerifyInput): boolean {
  return failure(input) === undefined;
}

/** The verified envelope; throws WebhookVerificationError (with its `reason`) otherwise. */
export function parse(input: VerifyInput): WebhookEnvelope {
  const reason = failure(input);
  if (reason) throw new WebhookVerificationError(reason);
  const text = typeof input.body === 'string' ? input.body : Buffer.from(input.body).toString('utf8');
  return JSON.parse(text) as WebhookEnvelope;
}

export const webhooks = { verify, parse };
