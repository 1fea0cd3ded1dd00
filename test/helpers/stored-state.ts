import type { Db } from '../../src/db/knex';

/** Every table request input can reach (a table the database does not have yet is skipped). */
const TABLES = [
  'partners',
  'merchants',
  'sites',
  'api_keys',
  'tokenization_keys',
  'access_tokens',
  'merchant_settings',
  'card_vault',
  'orders',
  'order_transitions',
  'refunds',
  'events',
  'idempotency_keys',
  'site_widget_settings',
  'sense_sessions',
  'sense_signals',
  'webhook_endpoints',
  'webhook_deliveries',
  'applications',
  'disputes',
];
/** The tables a PUT changes in place: their content is compared, not only their row count. */
const CONTENT = [
  'api_keys',
  'merchant_settings',
  'site_widget_settings',
  'sites',
  'webhook_endpoints',
  'applications',
  'tokenization_keys',
];

/**
 * What was stored: row counts of every table input can reach, and a digest of the content of the
 * ones a PUT changes. Equal before and after a refused request means it changed nothing.
 */
export async function storedState(db: Db): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const table of TABLES) {
    const exists = await db.raw('select to_regclass(?) as t', [table]);
    if (!exists.rows[0].t) continue;
    const { rows } = await db.raw(
      CONTENT.includes(table)
        ? `select count(*)::text || ':' || coalesce(md5(string_agg(x::text, '|' order by x::text)), '') as v from ${table} x`
        : `select count(*)::text as v from ${table}`,
    );
    out[table] = rows[0].v;
  }
  return out;
}
