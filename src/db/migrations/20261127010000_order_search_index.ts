import type { Knex } from 'knex';

/**
 * GET /v1/orders lists a merchant's orders newest first, paged by (created_at, id): this index
 * serves that order and the cursor's row comparison without a sort, the other filters being
 * checked while it is walked. The externalOrderId search needs no index of its own: the unique
 * (merchant_id, external_order_id) constraint of the orders migration is one.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('create index orders_merchant_newest_first on orders (merchant_id, created_at desc, id desc)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index orders_merchant_newest_first');
}
