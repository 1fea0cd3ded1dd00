import type { OrderPosition } from '../db/repositories/order-search';

/**
 * Cursors of GET /v1/orders are opaque, as those of GET /v1/events: `orc_` plus Base64url of the
 * last listed order's creation time (epoch milliseconds, the precision it is stored with) and id.
 */
const CURSOR_PREFIX = 'orc_';
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const POSITION = new RegExp(`^v1:(\\d{1,15}):(${UUID})$`);

export function orderCursor(position: OrderPosition): string {
  const text = `v1:${position.createdAt.getTime()}:${position.id}`;
  return `${CURSOR_PREFIX}${Buffer.from(text, 'utf8').toString('base64url')}`;
}

/** The position a cursor names, or undefined when it is not one of ours. */
export function orderCursorPosition(cursor: string): OrderPosition | undefined {
  if (!cursor.startsWith(CURSOR_PREFIX)) return undefined;
  const m = POSITION.exec(Buffer.from(cursor.slice(CURSOR_PREFIX.length), 'base64url').toString('utf8'));
  if (!m) return undefined;
  return { createdAt: new Date(Number(m[1])), id: m[2] as string };
}
