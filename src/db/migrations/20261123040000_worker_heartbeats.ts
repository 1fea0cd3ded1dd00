import type { Knex } from 'knex';

/**
 * One row per running worker process, refreshed every second (src/observability/worker-heartbeat.ts)
 * and deleted when it stops cleanly. Readiness (/v1/health/ready) needs a fresh row for the order
 * task queue: a killed worker's row goes stale within seconds, where Temporal's poller list only
 * notices after a long poll (1 min). Times are the database's own clock, so hosts' clocks never matter.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('worker_heartbeats', (t) => {
    t.uuid('id').primary();
    t.text('host').notNullable();
    t.integer('pid').notNullable();
    t.specificType('task_queues', 'text[]').notNullable();
    t.timestamp('started_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_seen', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('worker_heartbeats');
}
