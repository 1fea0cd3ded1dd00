import type { Knex } from 'knex';

/**
 * Which processor charges for a merchant (docs/processors.md). Null: the environment's default,
 * the card-network simulator in sandbox and none in production (evaluates answer 503002).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('merchant_settings', (t) => t.text('processor').nullable());
  await knex.raw(
    "alter table merchant_settings add constraint merchant_settings_processor check (processor in ('sandbox', 'stripe'))",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('merchant_settings', (t) => t.dropColumn('processor'));
}
