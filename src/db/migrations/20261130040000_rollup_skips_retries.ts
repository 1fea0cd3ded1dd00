import type { Knex } from 'knex';

/**
 * The rescue report's rollup trigger (migration 20261129030000) compared an order's
 * `service_attempts` on every write, so each async MIT retry that soft-declined (the attempt
 * number moving, no figure) took its two rollup rows out and put them back: two row versions and
 * a lock on rows a partner's orders of one day share. The rollup reads the attempts of rescued
 * orders only (which have `completed_at`), so the comparison now reads them only then.
 */
const keep = (attempts: (row: string) => string) => `
  create or replace function rescue_report_rollup_keep() returns trigger language plpgsql as $$
  begin
    if tg_op = 'UPDATE' and (old.partner_id, old.created_at, old.flow, old.currency, old.decline_code,
        old.status_name, old.authorization_id is null, old.captured_amount, ${attempts('old')},
        old.completed_at is null, old.expired_at is null)
      is not distinct from (new.partner_id, new.created_at, new.flow, new.currency, new.decline_code,
        new.status_name, new.authorization_id is null, new.captured_amount, ${attempts('new')},
        new.completed_at is null, new.expired_at is null) then
      return null;
    end if;
    if tg_op in ('UPDATE', 'DELETE') then perform rescue_report_rollup_add(old, -1); end if;
    if tg_op in ('INSERT', 'UPDATE') then perform rescue_report_rollup_add(new, 1); end if;
    return null;
  end $$`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(keep((row) => `case when ${row}.completed_at is null then null else ${row}.service_attempts end`));
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(keep((row) => `${row}.service_attempts`));
}
