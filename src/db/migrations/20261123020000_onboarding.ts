import type { Knex } from 'knex';

/**
 * Onboarding without the database (docs/authentication.md#tokenization-keys): tokenization keys
 * are listed and revoked through the API, so each has a name and the last four characters of its
 * key to tell them apart (the key itself is kept only as its hash).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('tokenization_keys', (t) => {
    t.text('name').notNullable().defaultTo('Tokenization key');
    t.text('key_hint').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('tokenization_keys', (t) => {
    t.dropColumn('key_hint');
    t.dropColumn('name');
  });
}
