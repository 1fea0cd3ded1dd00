import type { Knex } from 'knex';

/**
 * The browser widget: per-site collection settings (a site without a row uses the defaults of
 * src/domain/widget-config.ts), sense sessions (one per merchant and senseKey, with the time it
 * was last seen, which decides whether evaluate may use it) and the signals stored under them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('site_widget_settings', (t) => {
    t.uuid('site_id').primary().references('sites.id');
    t.boolean('collect_fingerprint').notNullable();
    t.boolean('collect_interactions').notNullable();
    t.boolean('collect_email').notNullable();
    t.boolean('collect_forms').notNullable();
    t.boolean('collect_route_changes').notNullable();
    t.specificType('email_selectors', 'text[]').notNullable().defaultTo('{}');
    t.specificType('form_selectors', 'text[]').notNullable().defaultTo('{}');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('sense_sessions', (t) => {
    t.uuid('merchant_id').notNullable().references('merchants.id');
    t.uuid('sense_key').notNullable();
    // The site that sent last: one key may span sites of a merchant (cross-domain stitching).
    t.uuid('site_id').notNullable().references('sites.id');
    t.text('external_order_id').nullable();
    t.text('fingerprint').nullable();
    t.integer('signal_count').notNullable().defaultTo(0);
    t.timestamp('first_seen_at', { useTz: true }).notNullable();
    t.timestamp('last_seen_at', { useTz: true }).notNullable();
    t.primary(['merchant_id', 'sense_key']);
    t.index(['last_seen_at']);
  });
  await knex.schema.createTable('sense_signals', (t) => {
    t.bigIncrements('id');
    t.uuid('merchant_id').notNullable();
    t.uuid('sense_key').notNullable();
    t.uuid('site_id').notNullable().references('sites.id');
    t.text('kind').notNullable();
    t.jsonb('data').notNullable();
    t.timestamp('received_at', { useTz: true }).notNullable();
    t.foreign(['merchant_id', 'sense_key']).references(['merchant_id', 'sense_key']).inTable('sense_sessions');
    t.index(['merchant_id', 'sense_key']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['sense_signals', 'sense_sessions', 'site_widget_settings']) {
    await knex.schema.dropTableIfExists(table);
  }
}
