import type { Knex } from 'knex';

/**
 * A partner's event feed (GET /v1/events with a partner key, `listen` polling it every second)
 * reads its application events by sequence. Without an index of its own it scanned and sorted
 * every merchant's events. Partial (application events only), so order events, the bulk of the
 * table and written on every transition, pay nothing for it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    "create index events_partner_application on events (partner_id, sequence) where name like 'application.%'",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index events_partner_application');
}
