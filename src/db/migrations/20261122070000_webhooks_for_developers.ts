import type { Knex } from 'knex';

/**
 * Webhooks for developers (docs/webhooks.md): a rotated signing secret waits, sealed like the
 * current one, until `pending_secret_activates_at`; test events (POST /v1/webhooks/{id}/test) are
 * marked so that the events list and the fan-out leave them out.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhook_endpoints', (t) => {
    t.text('pending_secret_key_id').nullable();
    t.binary('pending_secret_iv').nullable();
    t.binary('pending_secret_ciphertext').nullable();
    t.binary('pending_secret_auth_tag').nullable();
    t.timestamp('pending_secret_activates_at', { useTz: true }).nullable();
  });
  await knex.schema.alterTable('events', (t) => {
    t.boolean('is_test_event').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('events', (t) => t.dropColumn('is_test_event'));
  await knex.schema.alterTable('webhook_endpoints', (t) => {
    for (const c of ['key_id', 'iv', 'ciphertext', 'auth_tag', 'activates_at']) t.dropColumn(`pending_secret_${c}`);
  });
}
