import { createDb, type Db } from '../../src/db/knex';
import { RETRY_OFFSETS_MS } from '../../src/domain/orders/retry-schedule';
import { say } from './say';

/** The rescue reports' bench data (scripts/bench/reports.ts): merchants, orders and their charges. */
export const MERCHANTS = 50;
export const PARTNERS = 5;
export const DAYS = 90;

/**
 * The orders, one statement: flows (30% CIT, 10% Sync MIT, 60% async MIT), currencies (70% USD,
 * 20% EUR, 10% GBP), eight decline codes, and outcomes as the workflow leaves them: async MIT
 * declined at evaluate (15%), still open when created in the last 7 days (half of those), else
 * rescued on one of the schedule's retries (35%), expired (55%) or cancelled; CIT and Sync MIT
 * approved (45%, a third of them authorizations left uncaptured), declined (45%), challenged or
 * Problem. `r` columns are independent uniform draws.
 */
const SEED_ORDERS = `
insert into orders (id, version, merchant_id, partner_id, external_order_id, order_session_key, workflow_id,
  is_test_mode, flow, transaction_type, is_mit, is_recurring, status, status_name, outcome, amount, currency,
  authorized_amount, captured_amount, card_token, card_brand, card_bin, card_last4, response_code, decline_code,
  attempt_count, service_attempts, declined_at, window_ends_at, authorization_id, confirmation_id,
  created_at, updated_at, completed_at, cancelled_at, expired_at)
select gen_random_uuid(), 3, m.id, m.partner_id, 'bench-' || g.i, gen_random_uuid()::text, 'order:' || g.i,
  false, c.flow, 'SALE', c.flow <> 'CIT', c.flow <> 'CIT', s.status, s.status_name, s.outcome, c.amount, c.currency,
  case when s.approved then c.amount else 0 end, case when s.completed then c.amount else 0 end,
  gen_random_uuid(), 'visa', '411111', '1111', c.code, c.code, 1, s.attempts, c.created_at,
  case when c.flow = 'CIT' then null else c.created_at + interval '7 days' end,
  case when s.approved then 'auth-' || g.i end, case when s.completed then gen_random_uuid()::text end,
  c.created_at, coalesce(s.ended_at, c.created_at + interval '2 minutes'),
  case when s.completed then s.ended_at end,
  case when s.status_name = 'Cancelled' then s.ended_at end,
  case when s.expired then s.ended_at end
from generate_series(1, ?::int) as g(i)
join lateral (select id, partner_id from bench_merchants where n = g.i % ${MERCHANTS}) m on true
-- g.i * 0 makes each draw per row: an uncorrelated subquery would be evaluated once.
cross join lateral (select random() + g.i * 0 as r1, random() as r2, random() as r3, random() as r4, random() as r5) r
cross join lateral (
  select case when r.r1 < 0.3 then 'CIT' when r.r1 < 0.4 then 'SYNC_MIT' else 'ASYNC_MIT' end as flow,
         case when r.r2 < 0.7 then 'USD' when r.r2 < 0.9 then 'EUR' else 'GBP' end as currency,
         (array['51','05','61','65','91','96','14','54'])[1 + floor(r.r3 * 8)::int] as code,
         500 + floor(r.r4 * 20000)::bigint as amount,
         now() - (g.i::float / ?::int) * interval '${DAYS} days' as created_at,
         floor(r.r5 * 15)::int as slot
) c
cross join lateral (select random() + g.i * 0 as o1, random() as o2) d
cross join lateral (
  select x.*, x.status_name in ('Completed') as completed from (
    select
      case when c.flow = 'ASYNC_MIT' then
        case when d.o1 < 0.15 then 'Declined'
             when c.created_at > now() - interval '7 days' and d.o2 < 0.5 then 'Processing'
             when d.o2 < 0.35 then 'Completed' else 'Cancelled' end
      else
        case when d.o1 < 0.30 then 'Completed' when d.o1 < 0.45 then 'Capturerequired'
             when d.o1 < 0.90 then 'Declined' when d.o1 < 0.95 then 'Onhold' else 'Problem' end
      end as status_name
  ) x0
  cross join lateral (select
      x0.status_name,
      case x0.status_name when 'Completed' then 7 when 'Cancelled' then 2 when 'Declined' then 8
        when 'Processing' then 4 when 'Capturerequired' then 5 when 'Onhold' then 1 else 3 end as status,
      case when c.flow = 'ASYNC_MIT' then
        case x0.status_name when 'Declined' then 'DECLINED' when 'Completed' then 'APPROVED' else 'SUBMITTED' end
      else case x0.status_name when 'Completed' then 'APPROVED' when 'Capturerequired' then 'CAPTUREREQUIRED'
        when 'Onhold' then 'CHALLENGE' else 'DECLINED' end end as outcome,
      x0.status_name in ('Completed', 'Capturerequired') as approved,
      c.flow = 'ASYNC_MIT' and x0.status_name = 'Cancelled' and d.o2 < 0.90 as expired,
      case when c.flow <> 'ASYNC_MIT' then case when x0.status_name = 'Onhold' then 0 else 1 end
           when x0.status_name = 'Declined' then 0
           when x0.status_name = 'Completed' then 1 + c.slot
           when x0.status_name = 'Processing' then least(3, c.slot)
           else 7 end as attempts,
      case when c.flow = 'ASYNC_MIT' and x0.status_name = 'Completed'
             then c.created_at + (?::bigint[])[1 + c.slot] * interval '1 millisecond' + interval '3 seconds'
           when c.flow = 'ASYNC_MIT' and x0.status_name = 'Cancelled' then c.created_at + interval '7 days'
           when c.flow <> 'ASYNC_MIT' and x0.status_name = 'Completed' then c.created_at + interval '2 seconds'
      end as ended_at
  ) x
) s`;

/** One charge row per attempt an order made (sale; the approving one approved, the others declined). */
const SEED_CHARGES = `
insert into charges (id, order_id, merchant_id, external_order_id, kind, attempt, amount, currency, state, result,
  network_code, created_at, sent_at, answered_at, attempted_at, card_fingerprint)
select gen_random_uuid(), o.id, o.merchant_id, o.external_order_id, 'sale', a.n, o.amount, o.currency, 'answered',
  case when a.n = o.service_attempts and o.authorization_id is not null then 'approved' else 'declined' end,
  case when a.n = o.service_attempts and o.authorization_id is not null then null else '51' end,
  o.created_at, o.created_at, o.created_at, o.created_at, o.card_token::text
from orders o cross join lateral generate_series(1, o.service_attempts) as a(n)`;

/**
 * Seeds `orders` orders over a pool of its own, one connection and no statement timeout (a bulk
 * load takes minutes), then vacuums as autovacuum would after it.
 */
export async function seedReportData(
  pgUrl: string,
  orders: number,
): Promise<{ merchantId: string; partnerId: string }> {
  const db = createDb(pgUrl, 1, undefined, { statementTimeoutMs: 0 });
  try {
    return await seedWith(db, orders);
  } finally {
    await db.destroy();
  }
}

async function seedWith(db: Db, orders: number): Promise<{ merchantId: string; partnerId: string }> {
  const partners = (await db('partners')
    .insert(Array.from({ length: PARTNERS }, (_, i) => ({ name: `Bench Partner ${i}` })))
    .returning('id')) as Array<{ id: string }>;
  const merchants = (await db('merchants')
    .insert(
      Array.from({ length: MERCHANTS }, (_, i) => ({
        partner_id: (partners[i % PARTNERS] as { id: string }).id,
        name: `Bench Merchant ${i}`,
      })),
    )
    .returning(['id', 'partner_id'])) as Array<{ id: string; partner_id: string }>;
  await db.raw('create table bench_merchants (n int primary key, id uuid, partner_id uuid)');
  await db('bench_merchants').insert(merchants.map((m, n) => ({ n, id: m.id, partner_id: m.partner_id })));
  let t = Date.now();
  await db.raw(SEED_ORDERS, [orders, orders, `{${RETRY_OFFSETS_MS.join(',')}}`]);
  await db.raw('drop table bench_merchants');
  say(`seeded ${orders.toLocaleString('en')} orders in ${((Date.now() - t) / 1000).toFixed(0)} s`);
  t = Date.now();
  await db.raw(SEED_CHARGES);
  const charges = await db('charges').count({ n: '*' }).first();
  say(`seeded ${Number(charges?.n).toLocaleString('en')} charges in ${((Date.now() - t) / 1000).toFixed(0)} s`);
  t = Date.now();
  // What autovacuum does after a bulk load: statistics, and the visibility map index-only scans need.
  await db.raw('vacuum analyze orders');
  await db.raw('vacuum analyze charges');
  say(`vacuum analyze in ${((Date.now() - t) / 1000).toFixed(0)} s`);
  const first = merchants[0] as { id: string; partner_id: string };
  return { merchantId: first.id, partnerId: first.partner_id };
}
