import type { WidgetBatch } from '../../domain/widget-signals';
import type { Db } from '../knex';
import type { SenseSessionRecord } from '../tables/sense-sessions';

/** A row of `sense_sessions` (its columns: src/db/tables/sense-sessions.ts). */
export type SenseSessionRow = SenseSessionRecord;

/** Its timestamp columns, read as Dates (for rows that arrive as JSON: src/db/json-row.ts). */
export const SENSE_SESSION_INSTANTS = [
  'first_seen_at',
  'last_seen_at',
] as const satisfies readonly (keyof SenseSessionRow)[];

/**
 * Stores one accepted batch: creates or refreshes the session (last seen now; the fingerprint
 * kept when a batch does not repeat it) and appends its signals, in one transaction. The first
 * externalOrderId a session is bound to stays: the widget rotates the key for another order, so
 * a batch naming another one for a bound key (a `?senseKey=` link reloaded after the page moved
 * on) must not take the session's signals from the order they were collected for.
 */
export async function recordSignals(
  db: Db,
  input: { merchantId: string; siteId: string; batch: WidgetBatch; now: Date },
): Promise<void> {
  const { merchantId, siteId, batch, now } = input;
  let fingerprint: string | null = null;
  for (const signal of batch.signals) if (signal.kind === 'fingerprint') fingerprint = signal.hash;
  await db.transaction(async (trx) => {
    await trx.raw(
      `insert into sense_sessions
         (merchant_id, sense_key, site_id, external_order_id, fingerprint, signal_count, first_seen_at, last_seen_at)
       values (?, ?, ?, ?, ?, ?, ?, ?)
       on conflict (merchant_id, sense_key) do update set
         site_id = excluded.site_id,
         external_order_id = coalesce(sense_sessions.external_order_id, excluded.external_order_id),
         fingerprint = coalesce(excluded.fingerprint, sense_sessions.fingerprint),
         signal_count = sense_sessions.signal_count + excluded.signal_count,
         last_seen_at = greatest(sense_sessions.last_seen_at, excluded.last_seen_at)`,
      [merchantId, batch.senseKey, siteId, batch.externalOrderId, fingerprint, batch.signals.length, now, now],
    );
    if (batch.signals.length === 0) return;
    await trx('sense_signals').insert(
      batch.signals.map(({ kind, ...data }) => ({
        merchant_id: merchantId,
        sense_key: batch.senseKey,
        site_id: siteId,
        kind,
        data: JSON.stringify(data),
        received_at: now,
      })),
    );
  });
}

export async function findSenseSession(
  db: Db,
  merchantId: string,
  senseKey: string,
): Promise<SenseSessionRow | undefined> {
  return db('sense_sessions').where({ merchant_id: merchantId, sense_key: senseKey }).first();
}
