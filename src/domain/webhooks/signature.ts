import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The webhook signature, exactly as the interface's verification rules:
 * - x-fc-content-sha512 = Base64(SHA-512(UTF-8 body));
 * - string to sign = "POST" + LF + nonce;date;host;contentHash;
 * - signature = Base64(HMAC-SHA512(key = Base64-decoded signing secret, UTF-8 string to sign));
 * - x-fc-authorization = "HMAC-SHA512 SignedHeaders=x-fc-nonce;x-fc-date;host;x-fc-content-sha512&Signature=" + signature.
 * `host` is the host of the subscriber's endpoint URL, with its port where not the default.
 */
export const SIGNED_HEADERS = 'x-fc-nonce;x-fc-date;host;x-fc-content-sha512';

export function contentHash(body: string): string {
  return createHash('sha512').update(body, 'utf8').digest('base64');
}

export function stringToSign(nonce: string, date: string, host: string, hash: string): string {
  return `POST\n${nonce};${date};${host};${hash}`;
}

export function signature(secretBase64: string, toSign: string): string {
  return createHmac('sha512', Buffer.from(secretBase64, 'base64')).update(toSign, 'utf8').digest('base64');
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
    'x-fc-signature': sig,
  };
}

/**
 * The merchant's side (docs/webhooks.md): true when the webhook is authentic and unmodified.
 * `host` is the host the merchant's own endpoint is published at; `headers` keys in lower case.
 */
export function verifyWebhook(input: {
  body: string;
  headers: Record<string, string | undefined>;
  secretBase64: string;
  host: string;
}): boolean {
  const { headers } = input;
  const nonce = headers['x-fc-nonce'];
  const date = headers['x-fc-date'];
  const claimed = /&Signature=(.+)$/.exec(headers['x-fc-authorization'] ?? '')?.[1];
  if (!nonce || !date || !claimed) return false;
  const hash = contentHash(input.body);
  if (headers['x-fc-content-sha512'] !== hash) return false;
  const expected = Buffer.from(signature(input.secretBase64, stringToSign(nonce, date, input.host, hash)));
  const given = Buffer.from(claimed);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
