import type { Knex } from 'knex';

/**
 * Webhook delivery driven by one workflow per endpoint (docs/webhooks.md, "Delivery"): the
 * schedule lives in the delivery row. `next_attempt_at` is when the next attempt is due;
 * `round_started_at` and `round_attempts` place it on the retry schedule (a manual resend starts a
 * new round); `resend` makes every attempt of the round carry IsResent; `lease_until` is how long a
 * worker that claimed the row owns it (a worker that dies mid-batch loses it then). Rows written
 * before this migration have `by_endpoint_workflow` false: their own delivery workflow keeps them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhook_deliveries', (t) => {
    t.boolean('by_endpoint_workflow').notNullable().defaultTo(false);
    t.boolean('resend').notNullable().defaultTo(false);
    t.timestamp('round_started_at', { useTz: true }).nullable();
    t.integer('round_attempts').notNullable().defaultTo(0);
    t.timestamp('lease_until', { useTz: true }).nullable();
  });
  await knex.raw(
    `create index webhook_deliveries_due on webhook_deliveries (endpoint_id, next_attempt_at)
       where status = 'pending' and by_endpoint_workflow`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists webhook_deliveries_due');
  await knex.schema.alterTable('webhook_deliveries', (t) => {
    for (const c of ['by_endpoint_workflow', 'resend', 'round_started_at', 'round_attempts', 'lease_until'])
      t.dropColumn(c);
  });
}
