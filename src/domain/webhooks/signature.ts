import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The webhook signature, as the interface's verification rules and the commercial service's
 * published signed delivery (docs/webhooks.md, test/unit/webhook-signature.test.ts) define it:
 * - x-fc-content-sha512 = Base64(SHA-512(raw body bytes));
 * - string to sign = "POST" + LF + nonce;date;host;contentHash;
 * - x-fc-authorization = "HMAC-SHA512 SignedHeaders=x-fc-nonce;x-fc-date;host;x-fc-content-sha512&Signature="
 *   + Base64(HMAC-SHA512(key = Base64-decoded signing secret, UTF-8 string to sign));
 * - x-fc-signature = Base64(HMAC-SHA512(key = Base64-decoded signing secret, raw body bytes)).
 * `host` is the host of the subscriber's endpoint URL, with its port where not the default.
 */
export const SIGNED_HEADERS = 'x-fc-nonce;x-fc-date;host;x-fc-content-sha512';

/** How far x-fc-date may be from the verifier's clock (either way) by default: 5 minutes. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

type Body = string | Uint8Array;

const bytesOf = (body: Body): Buffer => (typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body));

export function contentHash(body: Body): string {
  return createHash('sha512').update(bytesOf(body)).digest('base64');
}

export function stringToSign(nonce: string, date: string, host: string, hash: string): string {
  return `POST\n${nonce};${date};${host};${hash}`;
}

/** The x-fc-authorization signature: HMAC-SHA512 of the string to sign. */
export function signature(secretBase64: string, toSign: string): string {
  return createHmac('sha512', Buffer.from(secretBase64, 'base64')).update(toSign, 'utf8').digest('base64');
}

/** The x-fc-signature value: HMAC-SHA512 of the raw body bytes. */
export function bodySignature(secretBase64: string, body: Body): string {
  return createHmac('sha512', Buffer.from(secretBase64, 'base64')).update(bytesOf(body)).digest('base64');
}

/** The headers of one delivery. */
export function signWebhook(input: {
  body: string;
  secretBase64: string;
  host: string;
  nonce: string;
  date: string;
}): Record<string, string> {
  const hash = contentHash(input.body);
  const sig = signature(input.secretBase64, stringToSign(input.nonce, input.date, input.host, hash));
  return {
    'x-fc-content-sha512': hash,
    'x-fc-date': input.date,
    'x-fc-nonce': input.nonce,
    'x-fc-authorization': `HMAC-SHA512 SignedHeaders=${SIGNED_HEADERS}&Signature=${sig}`,
    'x-fc-signature': bodySignature(input.secretBase64, input.body),
  };
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** One secret (`secretBase64`) or, during a rotation, several (`secrets`: any one may have signed). */
export type VerifySecrets =
  | { secretBase64: string; secrets?: undefined }
  | { secrets: string[]; secretBase64?: undefined };

/**
 * The merchant's side (docs/webhooks.md): true when the webhook is authentic, unmodified and fresh.
 * `body` is the raw request body; `host` is the host the merchant's own endpoint is published at;
 * `headers` keys in lower case. Checks x-fc-content-sha512, the x-fc-authorization signature, the
 * x-fc-signature (when `requireBodySignature`, the default, or whenever the header is present), and
 * that x-fc-date is within `toleranceSeconds` (default 300; 0 disables) of `now` (default: the clock).
 * With `secrets` (a rotation: the new and the old secret), it holds when one of them signed both
 * signatures; every secret is tried, so the time taken does not tell which matched.
 */
export function verifyWebhook(
  input: {
    body: Body;
    headers: Record<string, string | undefined>;
    host: string;
    toleranceSeconds?: number;
    now?: Date;
    requireBodySignature?: boolean;
  } & VerifySecrets,
): boolean {
  const { headers } = input;
  const nonce = headers['x-fc-nonce'];
  const date = headers['x-fc-date'];
  const claimed = /&Signature=(.+)$/.exec(headers['x-fc-authorization'] ?? '')?.[1];
  const claimedBody = headers['x-fc-signature'];
  if (!nonce || !date || !claimed) return false;
  if (!claimedBody && input.requireBodySignature !== false) return false;
  const tolerance = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (tolerance > 0) {
    const sent = Date.parse(date);
    const now = (input.now ?? new Date()).getTime();
    if (Number.isNaN(sent) || Math.abs(now - sent) > tolerance * 1000) return false;
  }
  const hash = contentHash(input.body);
  if (!sameText(headers['x-fc-content-sha512'] ?? '', hash)) return false;
  const secrets = input.secrets ?? (input.secretBase64 === undefined ? [] : [input.secretBase64]);
  let matched = false;
  for (const secret of secrets) {
    const headerOk = sameText(claimed, signature(secret, stringToSign(nonce, date, input.host, hash)));
    const bodyOk = claimedBody === undefined || sameText(claimedBody, bodySignature(secret, input.body));
    matched = (headerOk && bodyOk) || matched;
  }
  return matched;
}
