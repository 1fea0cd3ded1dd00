import type { Knex } from 'knex';

/**
 * The operators' rescue report counts every merchant's orders: at a million orders a scan of them
 * takes seconds, so it reads a rollup instead (docs/reports.md, "How it stays fast").
 *
 * `rescue_report_rollup`: per partner, UTC day of creation, dimension (the order's flow, or the
 * decline code it came with), key and currency, the sums of the orders' report figures. A
 * trigger on `orders` keeps it: every write of an order takes the row's old figures out and puts
 * its new ones in, so the rollup is always the sum over the orders as they stand, whoever writes
 * them (the order workflow's persistOrder, the refunds ledger) and however often a write is
 * repeated. A write that changes none of the figures (most of a rescue's retries) touches
 * nothing. The figures' definitions are those of the report's scan (src/db/repositories/
 * rescue-reports.ts); test/api/rescue-reports.test.ts checks that both agree.
 *
 * The exact median time to rescue does not add up, so it is read from the rescued orders alone,
 * through the partial index orders_rescued (about a sixth of the orders).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('rescue_report_rollup', (t) => {
    t.uuid('partner_id').notNullable();
    t.date('day').notNullable();
    t.text('dimension').notNullable().checkIn(['flow', 'declineCode']);
    t.text('key').notNullable();
    t.text('currency').notNullable();
    for (const count of ['evaluated', 'approved', 'declined', 'submitted', 'rescued', 'expired']) {
      t.integer(count).notNullable().defaultTo(0);
    }
    t.bigInteger('recovered').notNullable().defaultTo(0);
    t.bigInteger('rescue_attempts').notNullable().defaultTo(0);
    t.primary(['partner_id', 'day', 'dimension', 'key', 'currency']);
  });
  await knex.raw('create index rescue_report_rollup_by_day on rescue_report_rollup (day, dimension)');

  await knex.raw(`
    create function rescue_report_rollup_add(o orders, sign int) returns void language plpgsql as $$
    declare
      submitted boolean := o.flow = 'ASYNC_MIT' and o.status_name not in ('Draft', 'Declined');
      rescued boolean := submitted and o.completed_at is not null;
      dim record;
    begin
      for dim in select * from (values ('flow', o.flow), ('declineCode', coalesce(o.decline_code, ''))) as d(name, key)
      loop
        insert into rescue_report_rollup as r (partner_id, day, dimension, key, currency, evaluated, approved,
          declined, submitted, rescued, expired, recovered, rescue_attempts)
        values (o.partner_id, (o.created_at at time zone 'UTC')::date, dim.name, dim.key, o.currency,
          sign * (o.status_name <> 'Draft')::int,
          sign * (o.flow <> 'ASYNC_MIT' and o.authorization_id is not null)::int,
          sign * (o.status_name = 'Declined')::int,
          sign * submitted::int,
          sign * rescued::int,
          sign * (submitted and o.expired_at is not null)::int,
          sign * case when rescued then o.captured_amount else 0 end,
          sign * case when rescued then o.service_attempts else 0 end)
        on conflict (partner_id, day, dimension, key, currency) do update set
          evaluated = r.evaluated + excluded.evaluated,
          approved = r.approved + excluded.approved,
          declined = r.declined + excluded.declined,
          submitted = r.submitted + excluded.submitted,
          rescued = r.rescued + excluded.rescued,
          expired = r.expired + excluded.expired,
          recovered = r.recovered + excluded.recovered,
          rescue_attempts = r.rescue_attempts + excluded.rescue_attempts;
      end loop;
    end $$`);

  await knex.raw(`
    create function rescue_report_rollup_keep() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' and (old.partner_id, old.created_at, old.flow, old.currency, old.decline_code,
          old.status_name, old.authorization_id is null, old.captured_amount, old.service_attempts,
          old.completed_at is null, old.expired_at is null)
        is not distinct from (new.partner_id, new.created_at, new.flow, new.currency, new.decline_code,
          new.status_name, new.authorization_id is null, new.captured_amount, new.service_attempts,
          new.completed_at is null, new.expired_at is null) then
        return null;
      end if;
      if tg_op in ('UPDATE', 'DELETE') then perform rescue_report_rollup_add(old, -1); end if;
      if tg_op in ('INSERT', 'UPDATE') then perform rescue_report_rollup_add(new, 1); end if;
      return null;
    end $$`);
  await knex.raw(`create trigger orders_rescue_report_rollup after insert or update or delete on orders
    for each row execute function rescue_report_rollup_keep()`);

  // Orders written before the rollup: their sums, once.
  await knex.raw('select rescue_report_rollup_add(o, 1) from orders o');

  await knex.raw(
    `create index orders_rescued on orders (created_at)
     include (merchant_id, partner_id, flow, currency, decline_code, completed_at)
     where flow = 'ASYNC_MIT' and completed_at is not null and status_name not in ('Draft', 'Declined')`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists orders_rescued');
  await knex.raw('drop trigger if exists orders_rescue_report_rollup on orders');
  await knex.raw('drop function if exists rescue_report_rollup_keep()');
  await knex.raw('drop function if exists rescue_report_rollup_add(orders, int)');
  await knex.schema.dropTableIfExists('rescue_report_rollup');
}
