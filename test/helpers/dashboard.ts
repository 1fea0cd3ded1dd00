import { randomUUID } from 'node:crypto';
import type { Db } from '../../src/db/knex';
import { callApi } from './api-client';
import { accessToken, seedKey, seedMerchant } from './fixtures';

const nextYear = new Date().getUTCFullYear() + 1;
/** Sandbox test cards (docs/sandbox.md). */
export const APPROVES = '4111111111111111';
export const HARD_DECLINE = '4000000000000002';
/** An async MIT rescue with this card stays open (Processing) until its window ends: a next attempt. */
export const NEVER_FUNDED = '4000000000009995';
const MIT = { isMIT: true, isRecurring: true, subscription: { intervalCount: 1 } };

export interface DashboardMerchant {
  mid: string;
  pid: string;
  /** The merchant's full bearer (every scope). */
  token: string;
  /** Its orders, in the order they were evaluated. */
  orders: Array<{ orderId: string; externalOrderId: string }>;
}

/**
 * A merchant with an approved order, a declined one and an open async MIT rescue, all through the
 * real POST /v1/evaluate: what the dashboard's figures and lists are checked against.
 */
export async function seedDashboardMerchant(baseUrl: string, db: Db, tag: string): Promise<DashboardMerchant> {
  const merchant = await seedMerchant(db);
  const token = await accessToken(baseUrl, await seedKey(db, merchant));
  const orders: DashboardMerchant['orders'] = [];
  for (const [cardNumber, extra, responseCode] of [
    [APPROVES, {}, '51'],
    [HARD_DECLINE, {}, '05'],
    [NEVER_FUNDED, MIT, '51'],
  ] as const) {
    const externalOrderId = `${tag}-${randomUUID()}`;
    const res = await callApi(baseUrl, token, 'POST', '/v1/evaluate', {
      idempotencyKey: randomUUID(),
      externalOrderId,
      transaction: { amount: 2500, currency: 'USD', responseCode },
      paymentMethod: { cardNumber, expiryMonth: 12, expiryYear: nextYear },
      ...extra,
    });
    if (res.status !== 200) throw new Error(`evaluate failed: ${res.status} ${res.text}`);
    orders.push({ orderId: res.body.orderId, externalOrderId });
  }
  return { ...merchant, token, orders };
}

/** POST /v1/dashboard/links with the merchant's bearer; the answer as sent. */
export async function mintLink(baseUrl: string, token: string, body: unknown = {}) {
  return callApi(baseUrl, token, 'POST', '/v1/dashboard/links', body);
}

/** The link token of a minted link's URL (`…/dashboard#link=<token>`). */
export function linkTokenOf(url: string): string {
  const token = new URL(url).hash.replace(/^#link=/, '');
  if (!token.startsWith('dl1.')) throw new Error(`not a dashboard link: ${url}`);
  return token;
}
