import { createHash } from 'node:crypto';
import { z } from 'zod';

/**
 * A UUID derived from its parts (RFC 9562 version 8, "custom"): the same parts always give the
 * same id, so a retried fan-out creates the same delivery rather than a second one.
 */
export function derivedUuid(...parts: string[]): string {
  const hex = createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 32).split('');
  hex[12] = '8';
  hex[16] = ((Number.parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `text` is a UUID (ids and vault tokens are; Postgres refuses anything else in a uuid column). */
export function isUuid(text: string): boolean {
  return UUID.test(text);
}

/**
 * A request's idempotencyKey (a GUID), lowercased: GUIDs come in either case (SQL Server prints
 * them upper, .NET lower) and name the same key, which the refund id and the workflows' own
 * comparisons take as text (docs/idempotency.md).
 */
export const idempotencyKeyField = z.guid('must be a GUID').overwrite((key) => key.toLowerCase());
