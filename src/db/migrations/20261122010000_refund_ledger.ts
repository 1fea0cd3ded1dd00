import type { Knex } from 'knex';

/**
 * Refunds become a ledger with a life of their own (docs/architecture.md, "Money invariants"):
 * a refund is reserved (pending) under the order row's lock before the processor is called, then
 * settled (succeeded) or released (failed). The database itself refuses an order refunded beyond
 * what was captured, whatever the code above it does.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('refunds', (t) => {
    t.text('state').notNullable().defaultTo('succeeded').checkIn(['pending', 'succeeded', 'failed']);
    t.text('processor_reference').nullable().alter();
    t.timestamp('settled_at', { useTz: true }).nullable();
  });
  await knex.raw(
    'alter table orders add constraint orders_refunded_within_captured check (refunded_amount >= 0 and refunded_amount <= captured_amount)',
  );
  await knex.raw('alter table refunds add constraint refunds_amount_positive check (amount > 0)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table refunds drop constraint refunds_amount_positive');
  await knex.raw('alter table orders drop constraint orders_refunded_within_captured');
  await knex.schema.alterTable('refunds', (t) => {
    t.dropColumn('settled_at');
    t.dropColumn('state');
  });
}
