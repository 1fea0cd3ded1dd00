import type { Knex } from 'knex';

/**
 * API processes' leases (an idempotency claim of a process whose lease ran out is taken over at
 * once: docs/idempotency.md) and the token buckets shared by every API process
 * (docs/rate-limits.md).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('api_processes', (t) => {
    t.uuid('id').primary();
    t.text('host').notNullable();
    t.integer('pid').notNullable();
    t.timestamp('started_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('heartbeat_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['heartbeat_at']);
  });
  await knex.schema.alterTable('idempotency_keys', (t) => {
    t.uuid('owner_id').nullable(); // the API process holding an in-flight claim
    t.uuid('claim_id').nullable(); // this claim (a taken-over claim gets a new one)
  });
  await knex.schema.createTable('rate_limit_buckets', (t) => {
    t.text('key').primary();
    t.double('tokens').notNullable();
    t.double('burst').notNullable();
    t.double('rate_per_second').notNullable();
    t.bigInteger('updated_ms').notNullable();
    t.boolean('allowed').notNullable();
    t.index(['updated_ms']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('rate_limit_buckets');
  await knex.schema.alterTable('idempotency_keys', (t) => {
    t.dropColumn('claim_id');
    t.dropColumn('owner_id');
  });
  await knex.schema.dropTableIfExists('api_processes');
}
