import type { Knex } from 'knex';

/**
 * Webhook endpoints (signing secret encrypted at rest: it must be read back to sign), one
 * delivery per (event, endpoint) with its attempts, partner onboarding applications and disputes.
 * The outbox gains its dispatch marker; application events have no merchant.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('events', (t) => {
    t.uuid('merchant_id').nullable().alter();
    t.timestamp('dispatched_at', { useTz: true }).nullable();
  });
  await knex.raw('create index events_undispatched on events (sequence) where dispatched_at is null');
  // The challenge component addresses an order by its orderSessionKey.
  await knex.raw('create unique index orders_session_key on orders (order_session_key)');

  await knex.schema.createTable('webhook_endpoints', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('partner_id').notNullable().references('partners.id');
    t.uuid('merchant_id').nullable().references('merchants.id');
    t.text('url').notNullable();
    t.specificType('events', 'text[]').notNullable();
    t.text('description').nullable();
    t.boolean('enabled').notNullable().defaultTo(true);
    t.text('secret_key_id').notNullable();
    t.binary('secret_iv').notNullable();
    t.binary('secret_ciphertext').notNullable();
    t.binary('secret_auth_tag').notNullable();
    t.timestamp('failing_since', { useTz: true }).nullable();
    t.timestamp('alerted_at', { useTz: true }).nullable();
    t.timestamp('disabled_at', { useTz: true }).nullable();
    t.text('disabled_reason').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['merchant_id']);
    t.index(['partner_id']);
  });
  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.uuid('id').primary(); // also the envelope's IdempotencyKey: the same on every redelivery
    t.uuid('event_id').notNullable().references('events.id');
    t.uuid('endpoint_id').notNullable().references('webhook_endpoints.id');
    t.text('status').notNullable().checkIn(['pending', 'delivered', 'failed', 'stopped']);
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('next_attempt_at', { useTz: true }).nullable();
    t.timestamp('delivered_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['event_id', 'endpoint_id']);
    t.index(['endpoint_id', 'created_at']);
  });
  await knex.schema.createTable('webhook_attempts', (t) => {
    t.bigIncrements('id');
    t.uuid('delivery_id').notNullable().references('webhook_deliveries.id');
    t.integer('attempt').notNullable();
    t.boolean('is_resent').notNullable();
    t.timestamp('started_at', { useTz: true }).notNullable();
    t.integer('status_code').nullable();
    t.text('error').nullable();
    t.integer('latency_ms').notNullable();
    t.boolean('succeeded').notNullable();
    t.index(['delivery_id']);
  });
  await knex.schema.createTable('applications', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('partner_id').notNullable().references('partners.id');
    t.text('status').notNullable().checkIn(['DRAFT', 'SUBMITTED', 'APPROVED', 'DECLINED', 'CONVERTED', 'CANCELED']);
    t.jsonb('business').notNullable();
    t.uuid('merchant_id').nullable().references('merchants.id');
    t.text('decision_reason').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['partner_id', 'status']);
  });
  await knex.schema.createTable('disputes', (t) => {
    t.uuid('id').primary(); // TransactionId of the chargeback / early-warning events
    t.uuid('order_id').notNullable().references('orders.id');
    t.uuid('merchant_id').notNullable().references('merchants.id');
    t.text('kind').notNullable().checkIn(['chargeback', 'early_warning']);
    t.text('status').notNullable().checkIn(['received', 'reversed']);
    t.text('reason').notNullable();
    t.bigInteger('amount').notNullable();
    t.text('currency').notNullable();
    t.timestamp('dispute_at', { useTz: true }).notNullable();
    t.timestamp('reversed_at', { useTz: true }).nullable();
    t.index(['order_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['disputes', 'applications', 'webhook_attempts', 'webhook_deliveries', 'webhook_endpoints']) {
    await knex.schema.dropTableIfExists(table);
  }
  await knex.raw('drop index if exists events_undispatched');
  await knex.schema.alterTable('events', (t) => t.dropColumn('dispatched_at'));
}
