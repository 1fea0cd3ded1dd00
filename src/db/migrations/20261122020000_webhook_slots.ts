import type { Knex } from 'knex';

/**
 * Webhook attempt slots (leases) and the deliveries waiting for one: the per-endpoint and
 * per-merchant limits on attempts in flight, across worker processes (docs/webhooks.md).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_slots', (t) => {
    t.text('holder').primary(); // the delivery workflow's id
    t.uuid('endpoint_id').notNullable();
    t.text('owner_key').notNullable(); // merchant:<mid> or partner:<pid>
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.index(['owner_key']);
  });
  await knex.schema.createTable('webhook_slot_waiters', (t) => {
    t.text('holder').primary();
    t.uuid('endpoint_id').notNullable();
    t.text('owner_key').notNullable();
    t.timestamp('since', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['owner_key', 'since']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('webhook_slot_waiters');
  await knex.schema.dropTableIfExists('webhook_slots');
}
