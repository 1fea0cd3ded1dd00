import type { Knex } from 'knex';

/** The channel API processes LISTEN on (src/db/cache-notifications.ts). */
export const CACHE_CHANNEL = 'prs_cache_invalidation';

/**
 * What API processes cache, and so what must tell them when it changes: the credentials behind a
 * bearer token (api_keys: revocation, scopes; access_tokens: deletion) and the settings an
 * evaluate reads (merchant_settings, sites). A statement-level trigger sends the table's name on
 * commit whatever code path wrote it, so no revocation path can forget to.
 */
const CACHED_TABLES = ['api_keys', 'access_tokens', 'merchant_settings', 'sites'];

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create function notify_cache_invalidation() returns trigger language plpgsql as $$
    begin
      perform pg_notify('${CACHE_CHANNEL}', tg_table_name);
      return null;
    end $$`);
  for (const table of CACHED_TABLES) {
    await knex.raw(
      `create trigger ${table}_cache_invalidation after insert or update or delete or truncate on ${table}
       for each statement execute function notify_cache_invalidation()`,
    );
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of CACHED_TABLES) await knex.raw(`drop trigger if exists ${table}_cache_invalidation on ${table}`);
  await knex.raw('drop function if exists notify_cache_invalidation()');
}
