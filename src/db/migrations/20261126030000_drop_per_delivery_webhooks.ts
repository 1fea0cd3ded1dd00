import type { Knex } from 'knex';

/**
 * The per-delivery webhook workflow is gone (docs/changing-workflows.md, 2026-11-26): only
 * unreleased builds ran it. Its attempt slots (`webhook_slots`, `webhook_slot_waiters`) and the
 * column that set its deliveries apart (`by_endpoint_workflow`: every delivery is now the
 * per-endpoint workflow's) go with it; the due-deliveries index keeps its shape without the column.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.dropTable('webhook_slot_waiters');
  await knex.schema.dropTable('webhook_slots');
  await knex.raw('drop index webhook_deliveries_due');
  await knex.schema.alterTable('webhook_deliveries', (t) => {
    t.dropColumn('by_endpoint_workflow');
  });
  await knex.raw(
    `create index webhook_deliveries_due on webhook_deliveries (endpoint_id, next_attempt_at)
       where status = 'pending'`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index webhook_deliveries_due');
  // Every row there is the per-endpoint workflow's; a new row defaults to false as before.
  await knex.schema.alterTable('webhook_deliveries', (t) => {
    t.boolean('by_endpoint_workflow').notNullable().defaultTo(true);
  });
  await knex.raw('alter table webhook_deliveries alter column by_endpoint_workflow set default false');
  await knex.raw(
    `create index webhook_deliveries_due on webhook_deliveries (endpoint_id, next_attempt_at)
       where status = 'pending' and by_endpoint_workflow`,
  );
  await knex.schema.createTable('webhook_slots', (t) => {
    t.text('holder').primary();
    t.uuid('endpoint_id').notNullable();
    t.text('owner_key').notNullable();
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
