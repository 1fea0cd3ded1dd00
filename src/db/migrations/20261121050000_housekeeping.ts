import type { Knex } from 'knex';

/** The retention sweep of widget signals (src/housekeeping.ts) selects by age. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sense_signals', (t) => t.index(['received_at']));
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sense_signals', (t) => t.dropIndex(['received_at']));
}
