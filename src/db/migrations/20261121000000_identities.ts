import type { Knex } from 'knex';

/**
 * Partners own merchants; merchants own sites, API keys and tokenization keys. Secrets are stored
 * only as SHA-256 hashes of high-entropy random values (see src/domain/secrets.ts).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('partners', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('name').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('merchants', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('partner_id').notNullable().references('partners.id');
    t.text('name').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['partner_id']);
  });
  await knex.schema.createTable('sites', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('merchant_id').notNullable().references('merchants.id');
    t.text('name').notNullable();
    t.specificType('allowed_origins', 'text[]').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['merchant_id']);
  });
  await knex.schema.createTable('api_keys', (t) => {
    // The key's id is also its OAuth2 client_id.
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('owner_type').notNullable().checkIn(['merchant', 'partner']);
    t.uuid('partner_id').notNullable().references('partners.id');
    t.uuid('merchant_id').nullable().references('merchants.id');
    t.text('name').notNullable();
    t.text('description').nullable();
    t.text('secret_hash').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('revoked_at', { useTz: true }).nullable();
    t.index(['merchant_id']);
    t.index(['partner_id']);
  });
  await knex.raw(
    "alter table api_keys add constraint api_keys_owner check ((owner_type = 'merchant') = (merchant_id is not null))",
  );
  await knex.schema.createTable('tokenization_keys', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('merchant_id').notNullable().references('merchants.id');
    t.text('key_hash').notNullable().unique();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('revoked_at', { useTz: true }).nullable();
    t.index(['merchant_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['tokenization_keys', 'api_keys', 'sites', 'merchants', 'partners']) {
    await knex.schema.dropTableIfExists(table);
  }
}
