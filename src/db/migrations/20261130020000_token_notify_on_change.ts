import type { Knex } from 'knex';

/**
 * access_tokens told every API process to drop its cached grants on any statement, an insert
 * too, and a statement-level trigger fires even when it changes no row: every token issued (a
 * FlexCharge client takes one per purchase), with its housekeeping delete, emptied every
 * process's token cache. A new token cannot make a cached grant stale, so only a row updated or
 * deleted (and a truncate) is told now. The rows of one statement notify once: Postgres folds
 * identical notifications of a transaction into one.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('drop trigger access_tokens_cache_invalidation on access_tokens');
  await knex.raw(
    `create trigger access_tokens_cache_invalidation after update or delete on access_tokens
     for each row execute function notify_cache_invalidation()`,
  );
  await knex.raw(
    `create trigger access_tokens_truncate_cache_invalidation after truncate on access_tokens
     for each statement execute function notify_cache_invalidation()`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger access_tokens_truncate_cache_invalidation on access_tokens');
  await knex.raw('drop trigger access_tokens_cache_invalidation on access_tokens');
  await knex.raw(
    `create trigger access_tokens_cache_invalidation after insert or update or delete or truncate on access_tokens
     for each statement execute function notify_cache_invalidation()`,
  );
}
