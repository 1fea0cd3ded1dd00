import type { Knex } from 'knex';

/**
 * API key scopes and secret rotation, issued access tokens (hashed), merchant settings (what the
 * interface calls the merchant portal) and the card vault (AES-256-GCM ciphertext; only brand,
 * BIN and last4 in clear).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('api_keys', (t) => {
    t.specificType('scopes', 'text[]').notNullable().defaultTo('{payments,api_keys,settings,webhooks}');
    t.text('secret_hint').nullable(); // last 4 characters of the current secret, to tell keys apart
    t.text('previous_secret_hash').nullable();
    t.timestamp('previous_secret_expires_at', { useTz: true }).nullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('access_tokens', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('token_hash').notNullable().unique();
    t.uuid('api_key_id').notNullable().references('api_keys.id');
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['api_key_id']);
    t.index(['expires_at']);
  });
  await knex.schema.createTable('merchant_settings', (t) => {
    t.uuid('merchant_id').primary().references('merchants.id');
    t.integer('default_expiry_hours').notNullable();
    t.integer('sync_mit_window_hours').notNullable();
    t.text('mit_evaluation').notNullable().checkIn(['async', 'sync']);
    t.boolean('authorize_capability').notNullable();
    t.text('technical_contact_email').nullable();
    t.integer('capture_window_minutes').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(
    'alter table merchant_settings add constraint default_expiry_max_21_days check (default_expiry_hours between 1 and 504)',
  );
  await knex.schema.createTable('card_vault', (t) => {
    t.uuid('token').primary();
    t.uuid('merchant_id').notNullable().references('merchants.id');
    t.text('fingerprint').notNullable();
    t.text('key_id').notNullable();
    t.binary('iv').notNullable();
    t.binary('ciphertext').notNullable();
    t.binary('auth_tag').notNullable();
    t.text('brand').notNullable();
    t.text('bin').notNullable();
    t.text('last4').notNullable();
    t.smallint('expiry_month').notNullable();
    t.smallint('expiry_year').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['merchant_id', 'fingerprint']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('card_vault');
  await knex.schema.dropTableIfExists('merchant_settings');
  await knex.schema.dropTableIfExists('access_tokens');
  await knex.schema.alterTable('api_keys', (t) => {
    t.dropColumns('scopes', 'secret_hint', 'previous_secret_hash', 'previous_secret_expires_at', 'updated_at');
  });
}
