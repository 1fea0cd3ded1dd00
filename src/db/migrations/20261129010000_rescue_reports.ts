import type { Knex } from 'knex';

/**
 * Rescue reports (docs/reports.md) read the orders read model by creation time, per merchant and
 * across merchants, and group by the decline code the order came with.
 *
 * `decline_code`: that code, written once with the order's first row and never merged after
 * (`response_code` is replaced by each retry's decline, so it cannot say which declines were
 * rescued). Existing orders take their current `response_code`, the best that is known of them.
 *
 * The two covering indexes hold every column a report counts, so a report reads the index alone
 * (an index-only scan) for its merchant and range, or for every merchant's range; the partial one
 * holds the open async MIT rescues, a small part of the orders, for the list of the soonest.
 */
const REPORTED = [
  'partner_id',
  'flow',
  'currency',
  'decline_code',
  'status_name',
  'authorization_id',
  'captured_amount',
  'service_attempts',
  'completed_at',
  'expired_at',
].join(', ');

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('orders', (t) => {
    t.text('decline_code').nullable();
  });
  await knex.raw('update orders set decline_code = response_code');
  await knex.raw(`create index orders_merchant_report on orders (merchant_id, created_at) include (${REPORTED})`);
  await knex.raw(`create index orders_report on orders (created_at) include (merchant_id, ${REPORTED})`);
  await knex.raw(
    `create index orders_open_rescues on orders (merchant_id, created_at)
     include (id, partner_id, external_order_id, amount, currency, service_attempts, updated_at, window_ends_at)
     where status_name = 'Processing'`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists orders_open_rescues');
  await knex.raw('drop index if exists orders_report');
  await knex.raw('drop index if exists orders_merchant_report');
  await knex.schema.alterTable('orders', (t) => {
    t.dropColumn('decline_code');
  });
}
