import type { Knex } from 'knex';

/** Orders are looked up by orderSessionKey wherever an orderId is taken (FlexCharge clients). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('orders', (t) => t.index(['order_session_key']));
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('orders', (t) => t.dropIndex(['order_session_key']));
}
