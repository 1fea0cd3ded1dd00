import type { Knex } from 'knex';

/**
 * The orders read model (written only by the order workflow's activities), its transitions, the
 * refunds ledger, the event outbox and the idempotency records of the API.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('orders', (t) => {
    t.uuid('id').primary();
    t.integer('version').notNullable();
    t.uuid('merchant_id').notNullable().references('merchants.id');
    t.uuid('partner_id').notNullable().references('partners.id');
    t.text('external_order_id').notNullable();
    t.text('order_session_key').notNullable();
    t.text('workflow_id').notNullable();
    t.boolean('is_test_mode').notNullable();
    t.text('flow').notNullable();
    t.text('transaction_type').notNullable();
    t.boolean('is_mit').notNullable();
    t.boolean('is_recurring').notNullable();
    t.smallint('status').notNullable();
    t.text('status_name').notNullable();
    t.text('outcome').nullable();
    t.bigInteger('amount').notNullable();
    t.text('currency').notNullable();
    t.bigInteger('authorized_amount').notNullable().defaultTo(0);
    t.bigInteger('captured_amount').notNullable().defaultTo(0);
    t.bigInteger('refunded_amount').notNullable().defaultTo(0);
    t.uuid('card_token').notNullable();
    t.text('card_brand').notNullable();
    t.text('card_bin').notNullable();
    t.text('card_last4').notNullable();
    t.text('sense_key').nullable();
    t.text('response_code').nullable();
    t.integer('attempt_count').nullable();
    t.integer('service_attempts').notNullable().defaultTo(0);
    t.timestamp('declined_at', { useTz: true }).notNullable();
    t.timestamp('window_ends_at', { useTz: true }).nullable();
    t.timestamp('capture_before', { useTz: true }).nullable();
    t.text('confirmation_id').nullable();
    t.text('authorization_id').nullable();
    t.decimal('score', 6, 2).nullable();
    t.specificType('reasons', 'text[]').notNullable().defaultTo('{}');
    t.boolean('device_signals_used').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.timestamp('completed_at', { useTz: true }).nullable();
    t.timestamp('cancelled_at', { useTz: true }).nullable();
    t.timestamp('expired_at', { useTz: true }).nullable();
    t.unique(['merchant_id', 'external_order_id']);
  });
  await knex.schema.createTable('order_transitions', (t) => {
    t.bigIncrements('id');
    t.uuid('order_id').notNullable().references('orders.id');
    t.integer('version').notNullable();
    t.text('from_status').nullable();
    t.text('to_status').notNullable();
    t.text('reason').notNullable();
    t.timestamp('at', { useTz: true }).notNullable();
    t.unique(['order_id', 'version']);
  });
  await knex.schema.createTable('refunds', (t) => {
    t.uuid('id').primary(); // the TransactionId of order.refunded
    t.uuid('order_id').notNullable().references('orders.id');
    t.bigInteger('amount').notNullable();
    t.text('currency').notNullable();
    t.text('kind').notNullable().checkIn(['full', 'partial']);
    t.uuid('idempotency_key').nullable();
    t.text('processor_reference').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['order_id']);
  });
  await knex.raw("create unique index refunds_one_full_per_order on refunds (order_id) where kind = 'full'");
  await knex.schema.createTable('events', (t) => {
    t.uuid('id').primary();
    t.bigIncrements('sequence', { primaryKey: false });
    t.text('name').notNullable();
    t.uuid('merchant_id').notNullable().references('merchants.id');
    t.uuid('partner_id').notNullable().references('partners.id');
    t.uuid('order_id').nullable();
    t.text('external_order_id').nullable();
    t.text('confirmation_id').nullable();
    t.jsonb('data').nullable();
    t.boolean('is_test_mode').notNullable();
    t.timestamp('occurred_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['merchant_id', 'sequence']);
    t.index(['order_id']);
  });
  await knex.schema.createTable('idempotency_keys', (t) => {
    t.uuid('merchant_id').notNullable().references('merchants.id');
    t.uuid('key').notNullable();
    t.text('operation').notNullable();
    t.text('request_hash').notNullable();
    t.text('state').notNullable().checkIn(['in_flight', 'completed']);
    t.smallint('response_status').nullable();
    t.text('response_body').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.primary(['merchant_id', 'key']);
    t.index(['expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['idempotency_keys', 'events', 'refunds', 'order_transitions', 'orders']) {
    await knex.schema.dropTableIfExists(table);
  }
}
