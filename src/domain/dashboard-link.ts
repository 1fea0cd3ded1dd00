import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The merchant dashboard's link token: who it reads for and until when, signed with HMAC-SHA256
 * under the server's DASHBOARD_LINK_SECRET (docs/dashboard.md). Nothing is stored: the signature
 * is the proof, the expiry (at most an hour) bounds a leaked link. `dl1.` tells it apart from an
 * access token, so the API can route it to this check and never to the key lookup.
 */
export const DASHBOARD_LINK_PREFIX = 'dl1.';
export const DASHBOARD_LINK_DEFAULT_SECONDS = 15 * 60;
export const DASHBOARD_LINK_MAX_SECONDS = 60 * 60;

export interface DashboardLinkClaims {
  merchantId: string;
  partnerId: string;
  /** The API key whose bearer minted the link: the reads are attributed to it. */
  apiKeyId: string;
  expiresAt: Date;
}

export type DashboardLinkCheck = { claims: DashboardLinkClaims } | { problem: 'invalid' | 'expired' };

interface Payload {
  m: string;
  p: string;
  k: string;
  /** Expiry, Unix seconds. */
  e: number;
}

const sign = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest();

export function isDashboardLinkToken(token: string): boolean {
  return token.startsWith(DASHBOARD_LINK_PREFIX);
}

export function mintDashboardLink(secret: string, claims: DashboardLinkClaims): string {
  const payload: Payload = {
    m: claims.merchantId,
    p: claims.partnerId,
    k: claims.apiKeyId,
    e: Math.floor(claims.expiresAt.getTime() / 1000),
  };
  const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  return `${DASHBOARD_LINK_PREFIX}${body}.${sign(secret, body).toString('base64url')}`;
}

/** The claims of a genuine, unexpired link; the signature is checked before anything is read. */
export function verifyDashboardLink(secret: string, token: string, now: Date): DashboardLinkCheck {
  const [body, signature, ...rest] = token.slice(DASHBOARD_LINK_PREFIX.length).split('.');
  if (!isDashboardLinkToken(token) || !body || !signature || rest.length) return { problem: 'invalid' };
  const expected = sign(secret, body);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { problem: 'invalid' };
  const payload = parsePayload(Buffer.from(body, 'base64url').toString('utf8'));
  if (!payload) return { problem: 'invalid' };
  if (payload.e * 1000 <= now.getTime()) return { problem: 'expired' };
  return {
    claims: { merchantId: payload.m, partnerId: payload.p, apiKeyId: payload.k, expiresAt: new Date(payload.e * 1000) },
  };
}

function parsePayload(json: string): Payload | undefined {
  try {
    const p = JSON.parse(json) as Partial<Payload>;
    const ok = [p.m, p.p, p.k].every((v) => typeof v === 'string' && v) && Number.isSafeInteger(p.e);
    return ok ? (p as Payload) : undefined;
  } catch {
    return undefined;
  }
}
