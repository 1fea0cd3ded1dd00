import type { Knex } from 'knex';

/**
 * An order left Problem with a charge the processor never answered (it may stand) is told apart
 * from one the processor refused (nothing charged): a further evaluate answers 500 500010 for the
 * first, 503 503002 ("fall back to the decline") only for the second (docs/orders.md).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('orders', (t) => {
    t.boolean('charge_outcome_unknown').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('orders', (t) => {
    t.dropColumn('charge_outcome_unknown');
  });
}
